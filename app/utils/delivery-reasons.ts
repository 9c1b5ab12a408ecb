/**
 * Reasons a send failed that we write ourselves (not a provider's wording): what the ledger keeps,
 * and its key under storytellers:delivery, so the Sent tab says it in the owner's language.
 */

/** A call-out nobody took (Twilio's CallStatus). */
export const unreachedCalls = {
  busy: { reason: "busy", key: "callReasons.busy" },
  "no-answer": { reason: "no answer", key: "callReasons.noAnswer" },
  failed: { reason: "call failed", key: "callReasons.failed" },
  canceled: { reason: "call canceled", key: "callReasons.canceled" },
} as const satisfies Record<string, { reason: string; key: string }>;

/** The Storyteller marked a question's email as spam (Postmark's SpamComplaint). */
export const spamComplaint = { reason: "Marked as spam by the Storyteller", key: "spamComplaint" } as const;

const ownReasons: { reason: string; key: string }[] = [...Object.values(unreachedCalls), spamComplaint];

/** The key (under storytellers:delivery) of a reason we wrote; null for a provider's own wording. */
export function ownReasonKey(reason: string | null): string | null {
  return ownReasons.find((own) => own.reason === reason)?.key ?? null;
}
