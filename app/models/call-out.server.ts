import { applyProviderStatus } from "~/services/outbox.server";
import { unreachedCalls } from "~/utils/delivery-reasons";
import { isUuid } from "~/utils/ids";
import type { Db, DbOrTx } from "../../db/client";

/**
 * Call-out (decision 027): the scheduler's call to a Storyteller is an outbox message of channel
 * "call" riding on a ledger row, placed by the send job through the voice service. Its webhooks
 * carry the message's id (`m`, part of what Twilio signs), which is how they find the prompt.
 */

/**
 * A call-out was answered: the call's row (who, which question, the language) made from the ledger
 * row its message carries, unless it exists. So the call finds its question even when the worker
 * that placed it died before it could record the CallSid.
 */
export async function recordCallOut(db: DbOrTx, input: { callSid: string; outboxId: string; from: string }) {
  if (!isUuid(input.outboxId)) return;
  const row = await db
    .selectFrom("deliveries as d")
    .innerJoin("prompts as p", "p.id", "d.prompt_id")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .select(["p.id as prompt_id", "s.id as storyteller_id", "s.phone_e164", "s.language"])
    .innerJoin("outbox_messages as o", "o.id", "d.outbox_message_id")
    .where("d.outbox_message_id", "=", input.outboxId)
    .where("d.channel", "=", "call")
    // The call this message placed, or one its worker did not live to record: never another call.
    .where((eb) => eb.or([eb("o.provider_message_id", "is", null), eb("o.provider_message_id", "=", input.callSid)]))
    .executeTakeFirst();
  if (!row?.phone_e164) return;
  await db
    .insertInto("phone_calls")
    .values({
      call_sid: input.callSid,
      direction: "outbound",
      caller_e164: row.phone_e164,
      called_e164: input.from,
      storyteller_id: row.storyteller_id,
      prompt_id: row.prompt_id,
      language: row.language,
    })
    .onConflict((oc) => oc.column("call_sid").doNothing())
    .execute();
}

/**
 * A call-out ended (Twilio's status callback): a call nobody took (busy, no answer, failed) is
 * recorded on its message and ledger row with that reason; the prompt stays sent (its code works
 * for calling in). A completed call reconciles a message its worker left "sending".
 */
export async function recordCallOutcome(db: Db, input: { outboxId: string; callSid: string; status: string }) {
  if (!isUuid(input.outboxId)) return;
  const unreached = (unreachedCalls as Record<string, { reason: string } | undefined>)[input.status]?.reason;
  if (!unreached && input.status !== "completed") return;
  await applyProviderStatus(db, {
    outboxId: input.outboxId,
    providerMessageId: input.callSid,
    failed: Boolean(unreached),
    reason: unreached ?? "",
  });
}
