/**
 * A call-out nobody took (Twilio's CallStatus): the reason the ledger keeps, and its key in
 * storytellers:delivery.callReasons, so the Sent tab says it in the owner's language.
 */
export const unreachedCalls = {
  busy: { reason: "busy", key: "busy" },
  "no-answer": { reason: "no answer", key: "noAnswer" },
  failed: { reason: "call failed", key: "failed" },
  canceled: { reason: "call canceled", key: "canceled" },
} as const satisfies Record<string, { reason: string; key: string }>;

/** The translation key (under storytellers:delivery.callReasons) of a stored reason, if it is a call's. */
export function callReasonKey(reason: string | null): string | null {
  return Object.values(unreachedCalls).find((outcome) => outcome.reason === reason)?.key ?? null;
}
