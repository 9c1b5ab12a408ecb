import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { CallService } from "~/services/call-out.server";
import type { MailBatchResult, MailMessage, MailService } from "~/services/mail.server";
import type { SmsService } from "~/services/sms.server";
import type { WhatsAppService } from "~/services/whatsapp-simulator.server";
import { isUuid } from "~/utils/ids";
import { oneLine } from "~/utils/validation";
import { type Db, type DbOrTx, inTransaction } from "../../db/client";
import type { Channel, OutboxMessage } from "../../db/schema";
import { enqueueJob, sendQueueOf } from "./jobs.server";
import { PermanentSendError, sendErrorReason } from "./send-errors.server";

export type OutgoingEmail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
};

export type OutgoingSms = { to: string; text: string };
/** A prompt's call-out (decision 027): `text` is what the outbox shows of it, not what is said. */
export type OutgoingCall = { to: string; text: string };
/** A WhatsApp message: a question's template (`template`: its language; `variables`: JSON), else free-form text. */
export type OutgoingWhatsApp = { to: string; text: string; template?: { language: string; variables: string } };

const whatsAppHeaders = (message: OutgoingWhatsApp): Record<string, string> =>
  message.template ? { template: message.template.language, variables: message.template.variables } : {};

/** When to send and whether the outbox__send job is queued for it (a delivery's job sends its own). */
export type QueueOptions = { runAt?: Date; withJob?: boolean };

/**
 * An email's subject and header values on one line (`oneLine`), whatever names or questions were
 * built into them: a line break there would start a header of its own.
 */
function headerSafe(email: OutgoingEmail): { subject: string; headers: Record<string, string> } {
  const headers = Object.fromEntries(
    Object.entries(email.headers ?? {}).map(([name, value]) => [name, oneLine(value)]),
  );
  return { subject: oneLine(email.subject), headers };
}

/** Stores the email and queues its send job in one transaction (or in the caller's). */
export async function queueEmail(db: DbOrTx, email: OutgoingEmail, options: QueueOptions = {}): Promise<string> {
  const { subject, headers } = headerSafe(email);
  const row = {
    channel: "email" as const,
    to_address: email.to,
    subject,
    text_body: email.text,
    html_body: email.html ?? null,
    headers: JSON.stringify(headers),
  };
  return queueMessage(db, row, options);
}

export async function queueSms(db: DbOrTx, sms: OutgoingSms, options: QueueOptions = {}): Promise<string> {
  return queueMessage(
    db,
    { channel: "sms", to_address: sms.to, subject: null, text_body: sms.text, html_body: null, headers: "{}" },
    options,
  );
}

/** A free-form WhatsApp message (a reply inside her 24-hour window) and its send job. */
export async function queueWhatsApp(db: DbOrTx, message: OutgoingWhatsApp, options: QueueOptions = {}) {
  return queueMessage(
    db,
    {
      channel: "whatsapp",
      to_address: message.to,
      subject: null,
      text_body: message.text,
      html_body: null,
      headers: JSON.stringify(whatsAppHeaders(message)),
    },
    options,
  );
}

/**
 * What she sent us on WhatsApp, kept beside what we sent her (status "received"). The caller makes
 * sure each message is kept once (inbound_messages).
 */
export async function keepInboundWhatsApp(db: DbOrTx, message: { from: string; text: string; messageSid: string }) {
  await db
    .insertInto("outbox_messages")
    .values({
      channel: "whatsapp",
      direction: "inbound",
      status: "received",
      to_address: message.from,
      text_body: message.text,
      provider: "whatsapp",
      provider_message_id: message.messageSid,
      sent_at: new Date(),
    })
    .execute();
}

async function queueMessage(
  db: DbOrTx,
  row: {
    channel: Exclude<Channel, "call">;
    to_address: string;
    subject: string | null;
    text_body: string;
    html_body: string | null;
    headers: string;
  },
  { runAt, withJob = true }: QueueOptions,
): Promise<string> {
  return inTransaction(db, async (tx) => {
    const { id } = await tx.insertInto("outbox_messages").values(row).returning("id").executeTakeFirstOrThrow();
    if (withJob)
      await enqueueJob(
        tx,
        "outbox__send",
        { messageId: id },
        { runAt, queueName: row.channel === "email" ? undefined : sendQueueOf(row.channel) },
      );
    return id;
  });
}

/** A message as handed to a provider: what sending needs of its row. */
export type ClaimedMessage = Pick<
  OutboxMessage,
  "id" | "channel" | "to_address" | "subject" | "text_body" | "html_body" | "headers"
>;

/**
 * Stores many messages in one statement, without send jobs (the caller's batch job sends them):
 * the scheduler's batches. With `claimant`, the emails are stored already claimed by that job
 * ("sending"), to be handed to sendOutboxBatch as `claimed` once this transaction commits; texts
 * are always stored "queued", as each is claimed right before it goes. Returns the rows in order.
 */
export async function queueMessagesWithoutJobs(
  db: DbOrTx,
  messages: (
    | { channel: "email"; email: OutgoingEmail }
    | { channel: "sms"; sms: OutgoingSms }
    | { channel: "call"; call: OutgoingCall }
    | { channel: "whatsapp"; whatsapp: OutgoingWhatsApp }
  )[],
  { claimant }: { claimant?: string } = {},
): Promise<(ClaimedMessage & { status: "queued" | "sending" })[]> {
  if (!messages.length) return [];
  const now = new Date();
  const rows = messages.map((m) => {
    const safe = m.channel === "email" ? headerSafe(m.email) : null;
    const claimed = m.channel === "email" && claimant !== undefined;
    const short =
      m.channel === "sms" ? m.sms : m.channel === "call" ? m.call : m.channel === "whatsapp" ? m.whatsapp : null;
    return {
      id: randomUUID(),
      channel: m.channel,
      to_address: m.channel === "email" ? m.email.to : short!.to,
      subject: safe ? safe.subject : null,
      text_body: m.channel === "email" ? m.email.text : short!.text,
      html_body: m.channel === "email" ? (m.email.html ?? null) : null,
      headers: safe ? safe.headers : m.channel === "whatsapp" ? whatsAppHeaders(m.whatsapp) : {},
      status: claimed ? ("sending" as const) : ("queued" as const),
      claimed_at: claimed ? now : null,
      claimed_by: claimed ? claimant : null,
    };
  });
  await db
    .insertInto("outbox_messages")
    .values(rows.map((row) => ({ ...row, headers: JSON.stringify(row.headers) })))
    .execute();
  return rows;
}

/** `calls`: placing call-outs (absent where no voice service is wired; a call then waits and retries). */
export type SendDeps = { db: Db; mail: MailService; sms: SmsService; calls?: CallService; whatsapp?: WhatsAppService };
/** "cancelled": a text whose number sent STOP after it was queued; nothing reached the provider. */
export type SendOutcome = "sent" | "failed" | "cancelled" | "nothing-to-do";
/**
 * `claimant` is the graphile-worker job doing the send (its id): a message "sending" under another
 * job's claim is that job's to finish, unless that job gave up on it (an error is recorded) or the
 * claim is older than CLAIM_LEASE_MS (the job died and will not come back for it).
 */
export type SendOptions = { lastAttempt: boolean; claimant?: string };

const CLAIM_LEASE_MS = 10 * 60_000;
/** Postmark's batch endpoint takes at most 500 messages per call. */
export const EMAIL_BATCH_SIZE = 500;

/**
 * Sends one outbox message at most once. The row is claimed (queued → sending) before the provider
 * is called. Finding it still "sending" means an earlier attempt died or failed mid-send: the
 * provider is asked whether it accepted the message, and only if it did not is it sent again. A
 * text is re-checked against STOP right before the provider is called. A delivery that rides on
 * this message gets the same final state. Throws on a transient failure so the caller's job
 * retries; `lastAttempt` turns that into "failed".
 */
export async function sendOutboxMessage(
  deps: SendDeps,
  messageId: string,
  { lastAttempt, claimant }: SendOptions,
): Promise<SendOutcome> {
  const { db } = deps;
  const now = new Date();
  const claim = { claimed_at: now, claimed_by: claimant ?? null, error: null };
  let message = await db
    .updateTable("outbox_messages")
    .set({ status: "sending", ...claim })
    .where("id", "=", messageId)
    .where("status", "=", "queued")
    .returningAll()
    .executeTakeFirst();

  if (!message) {
    const current = await db.selectFrom("outbox_messages").selectAll().where("id", "=", messageId).executeTakeFirst();
    if (!current || current.status !== "sending" || claimedElsewhere(current, claimant, now)) return "nothing-to-do";
    const since = current.claimed_at ?? current.created_at;
    // A call carries nothing of ours at the provider: one another message placed is not this one.
    const accepted =
      current.channel === "call" && deps.calls
        ? await deps.calls.findSent(asProviderMessage(current), since, await callsPlacedForOthers(db, current))
        : current.channel === "whatsapp"
          ? await whatsAppOf(deps).findSent(asProviderMessage(current), since, await callsPlacedForOthers(db, current))
          : await (providerFor(deps, current) as MailService | SmsService).findSent(asProviderMessage(current), since);
    if (accepted) return (await markSent(deps, [{ message: current, providerMessageId: accepted }]), "sent");
    // Re-claimed only as found: of two jobs reconciling at once, one sends.
    message = await db
      .updateTable("outbox_messages")
      .set(claim)
      .where("id", "=", messageId)
      .where("status", "=", "sending")
      .where("claimed_by", "is not distinct from", current.claimed_by)
      .where("error", "is not distinct from", current.error)
      .returningAll()
      .executeTakeFirst();
    if (!message) return "nothing-to-do";
  }

  // WhatsApp's STOP is kept with texts' (sms_consents: the number's word) and holds its questions;
  // a reply to what she just sent (no template) still goes (decision 041).
  const stoppable = message.channel === "sms" || (message.channel === "whatsapp" && Boolean(message.headers.template));
  if (stoppable && (await numberHasSentStop(db, message.to_address))) {
    await refuseStopped(db, message.id, now);
    return "cancelled";
  }
  if (message.channel === "call" && (await numberRefusesCalls(db, message.to_address))) {
    await refuseStopped(db, message.id, now, "opted out of calls");
    return "cancelled";
  }

  let providerMessageId: string;
  try {
    const provider = providerFor(deps, message);
    providerMessageId = await provider.send(asProviderMessage(message));
  } catch (error) {
    const permanent = error instanceof PermanentSendError;
    if (permanent || lastAttempt) {
      await markFailed(db, [{ id: message.id, reason: sendErrorReason(error) }]);
      if (permanent) return "failed";
    } else {
      // A timeout or a dropped connection may come after the provider took the message: the row
      // stays "sending", so the retry asks the provider (findSent) before sending again.
      await noteTransientError(db, [{ id: message.id, reason: sendErrorReason(error) }]);
    }
    throw error;
  }
  await markSent(deps, [{ message, providerMessageId }]);
  return "sent";
}

/**
 * Sends many outbox messages (the scheduler's batches) with the same guarantees as
 * sendOutboxMessage. `claimed` are emails this job stored already claimed (queueMessagesWithoutJobs);
 * of `ids`, queued emails are claimed in one statement and handed to the provider in
 * batches of 500 (Postmark's batch endpoint; one by one for a provider without one), and their
 * results are recorded in one statement each. Texts are claimed and sent one at a time, each
 * re-checked against STOP just before (they run in the texts queue, at the number's pace), and a
 * message an earlier attempt left "sending" is reconciled as sendOutboxMessage does. Transient
 * failures are thrown after everything else is done, so the job retries only what is left.
 */
export async function sendOutboxBatch(
  deps: SendDeps,
  messages: { claimed?: ClaimedMessage[]; ids: string[] },
  { lastAttempt, claimant }: SendOptions,
): Promise<Record<SendOutcome, number>> {
  const counts: Record<SendOutcome, number> = { sent: 0, failed: 0, cancelled: 0, "nothing-to-do": 0 };
  const { db } = deps;
  const messageIds = messages.ids;
  const claimed: ClaimedMessage[] = [
    ...(messages.claimed ?? []),
    ...(messageIds.length
      ? await db
          .updateTable("outbox_messages")
          .set({ status: "sending", claimed_at: new Date(), claimed_by: claimant ?? null, error: null })
          // Locked by id first, as everywhere (lockMessagesAndDeliveries).
          .where("id", "in", (eb) =>
            eb
              .selectFrom("outbox_messages")
              .select("id")
              .where("id", "in", messageIds)
              .where("status", "=", "queued")
              .where("channel", "=", "email")
              .orderBy("id")
              .forUpdate(),
          )
          .where("status", "=", "queued")
          .returningAll()
          .execute()
      : []),
  ];

  let transient: unknown = null;
  for (let i = 0; i < claimed.length; i += EMAIL_BATCH_SIZE) {
    const chunk = claimed.slice(i, i + EMAIL_BATCH_SIZE);
    let results: MailBatchResult[];
    try {
      results = await sendMailBatch(deps.mail, chunk.map(asProviderMessage));
    } catch (error) {
      const permanent = error instanceof PermanentSendError;
      results = chunk.map(() => ({ error: sendErrorReason(error), permanent }));
      if (!permanent) transient = error;
    }
    const sent = [];
    const failed = [];
    const retry = [];
    for (const [j, result] of results.entries()) {
      const message = chunk[j];
      if ("providerMessageId" in result) sent.push({ message, providerMessageId: result.providerMessageId });
      else if (result.permanent || lastAttempt) failed.push({ id: message.id, reason: result.error });
      else retry.push({ id: message.id, reason: result.error });
    }
    await markSent(deps, sent);
    await markFailed(db, failed);
    await noteTransientError(db, retry);
    if (retry.length) transient ??= new Error(retry[0].reason);
    counts.sent += sent.length;
    counts.failed += failed.length;
  }

  const claimedIds = new Set(claimed.map((m) => m.id));
  // Texts, and messages an earlier attempt left "sending", one at a time.
  for (const id of messageIds) {
    if (claimedIds.has(id)) continue;
    try {
      counts[await sendOutboxMessage(deps, id, { lastAttempt, claimant })]++;
    } catch (error) {
      if (error instanceof PermanentSendError) counts.failed++;
      else transient ??= error;
    }
  }
  if (transient && !lastAttempt) throw transient;
  return counts;
}

/** One provider call per batch where the provider has one; otherwise one send per message. */
async function sendMailBatch(mail: MailService, messages: MailMessage[]): Promise<MailBatchResult[]> {
  if (mail.sendBatch) {
    const results = await mail.sendBatch(messages);
    // Not one answer per message: which were taken is unknown, so all are reconciled on retry.
    if (results.length !== messages.length)
      throw new Error(`${mail.name} answered ${results.length} of ${messages.length}`);
    return results;
  }
  const results: MailBatchResult[] = [];
  for (const message of messages) {
    try {
      results.push({ providerMessageId: await mail.send(message) });
    } catch (error) {
      results.push({ error: sendErrorReason(error), permanent: error instanceof PermanentSendError });
    }
  }
  return results;
}

function claimedElsewhere(message: OutboxMessage, claimant: string | undefined, now: Date) {
  return (
    message.error === null &&
    message.claimed_by !== null &&
    message.claimed_by !== (claimant ?? null) &&
    now.getTime() - (message.claimed_at ?? message.created_at).getTime() < CLAIM_LEASE_MS
  );
}

/** What other messages of the channel to the same number are known to have placed (CallSids, MessageSids). */
async function callsPlacedForOthers(db: Db, message: Pick<OutboxMessage, "id" | "to_address" | "channel">) {
  const rows = await db
    .selectFrom("outbox_messages")
    .select("provider_message_id")
    .where("channel", "=", message.channel)
    .where("to_address", "=", message.to_address)
    .where("id", "<>", message.id)
    .where("provider_message_id", "is not", null)
    .execute();
  return new Set(rows.map((row) => row.provider_message_id!));
}

function providerFor(deps: SendDeps, message: Pick<OutboxMessage, "channel">) {
  if (message.channel === "email") return deps.mail;
  if (message.channel === "sms") return deps.sms;
  if (message.channel === "whatsapp") return whatsAppOf(deps);
  if (!deps.calls) throw new Error("no voice service to place the call");
  return deps.calls;
}

function whatsAppOf(deps: SendDeps) {
  if (!deps.whatsapp) throw new Error("no WhatsApp service to send the message");
  return deps.whatsapp;
}

const asProviderMessage = (message: ClaimedMessage) => ({
  id: message.id,
  to: message.to_address,
  subject: message.subject ?? "",
  text: message.text_body,
  html: message.html_body,
  headers: message.headers,
});

/**
 * The number's latest answer was STOP (sms_consents, kept even when no Storyteller uses it). Asked
 * right before each text goes to the provider, so a STOP that arrives while the text waits holds it.
 */
export async function numberHasSentStop(db: DbOrTx, phone: string) {
  const latest = await db
    .selectFrom("sms_consents")
    .select("status")
    .where("phone_e164", "=", phone)
    .where("replied_at", "is not", null)
    .orderBy("replied_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return latest?.status === "revoked";
}

/**
 * The number's own latest word on calls was an opt-out (call_consents: a key pressed on a call, or a
 * text STOP, not lifted by START): asked right before a call is placed, as STOP is before a text.
 */
export async function numberRefusesCalls(db: DbOrTx, phone: string) {
  const latest = await db
    .selectFrom("call_consents")
    .select("status")
    .where("phone_e164", "=", phone)
    // The number's own word (a key on a call, STOP or START by text); an owner's tick never lifts it.
    .where("source", "<>", "owner")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return latest?.status === "revoked";
}

/**
 * A text held back by STOP (or a call by an opt-out): the message fails with that reason and a
 * prompt riding on it goes back to the queue (its ledger row cancelled, as the send job's own
 * re-check does), so it is sent after START instead of being counted as sent.
 */
async function refuseStopped(db: Db, messageId: string, now: Date, reason = "opted out") {
  await inTransaction(db, async (tx) => {
    await tx
      .updateTable("outbox_messages")
      .set({ status: "failed", error: reason === "opted out" ? "opted out (STOP)" : reason })
      .where("id", "=", messageId)
      .execute();
    const prompts = await tx
      .updateTable("deliveries")
      .set({ status: "cancelled", error: reason, updated_at: now })
      .where("outbox_message_id", "=", messageId)
      .returning(["prompt_id", "purpose"])
      .execute();
    const unsent = prompts.filter((d) => d.purpose === "prompt").map((d) => d.prompt_id);
    if (!unsent.length) return;
    await tx.updateTable("prompts").set({ sent_at: null, updated_at: now }).where("id", "in", unsent).execute();
    await tx.deleteFrom("notifications").where("type", "=", "new").where("prompt_id", "in", unsent).execute();
  });
}

/**
 * Every transaction that changes existing messages and their ledger rows locks them in one order:
 * messages, then ledger rows, each by id. Send batches overlap (a retried job, Send now beside a
 * batch), and rows locked in whatever order a join gives deadlock against one another.
 */
async function lockMessagesAndDeliveries(tx: DbOrTx, messageIds: string[]) {
  if (!messageIds.length) return;
  await tx.selectFrom("outbox_messages").select("id").where("id", "in", messageIds).orderBy("id").forUpdate().execute();
  await tx
    .selectFrom("deliveries")
    .select("id")
    .where("outbox_message_id", "in", messageIds)
    .orderBy("id")
    .forUpdate()
    .execute();
}

/** Records what providers accepted, in one statement per table; a delivery riding on a message follows it. */
async function markSent(deps: SendDeps, sent: { message: ClaimedMessage; providerMessageId: string }[]) {
  if (!sent.length) return;
  const now = new Date();
  // Once a real provider has the message, its body (sign-in codes, links) is not kept here.
  const forget = (message: ClaimedMessage) => !["outbox", "simulator"].includes(providerFor(deps, message).name);
  await inTransaction(deps.db, async (tx) => {
    await lockMessagesAndDeliveries(
      tx,
      sent.map((s) => s.message.id),
    );
    // Only from "sending": a failure the provider reported meanwhile (status callback) stands.
    const updated = await sql<{ id: string; provider_message_id: string }>`
      update outbox_messages o
      set status = 'sent', provider = v.provider, provider_message_id = v.provider_message_id, sent_at = ${now},
          error = null,
          text_body = case when v.forget then '' else o.text_body end,
          html_body = case when v.forget then null else o.html_body end
      from unnest(${sent.map((s) => s.message.id)}::uuid[], ${sent.map((s) => s.providerMessageId)}::text[],
                  ${sent.map((s) => providerFor(deps, s.message).name)}::text[], ${sent.map((s) => forget(s.message))}::boolean[])
           as v(id, provider_message_id, provider, forget)
      where o.id = v.id and o.status = 'sending'
      returning o.id, o.provider_message_id`.execute(tx);
    if (!updated.rows.length) return;
    await sql`
      update deliveries d
      set status = 'sent', provider_message_id = v.provider_message_id, sent_at = ${now}, error = null, updated_at = ${now}
      from unnest(${updated.rows.map((r) => r.id)}::uuid[], ${updated.rows.map((r) => r.provider_message_id)}::text[])
           as v(id, provider_message_id)
      where d.outbox_message_id = v.id`.execute(tx);
  });
}

async function markFailed(db: Db, failed: { id: string; reason: string }[]) {
  if (!failed.length) return;
  const now = new Date();
  const ids = failed.map((f) => f.id);
  const reasons = failed.map((f) => f.reason);
  await inTransaction(db, async (tx) => {
    await lockMessagesAndDeliveries(tx, ids);
    await sql`
      update outbox_messages o set status = 'failed', error = v.reason
      from unnest(${ids}::uuid[], ${reasons}::text[]) as v(id, reason) where o.id = v.id`.execute(tx);
    await sql`
      update deliveries d set status = 'failed', error = v.reason, updated_at = ${now}
      from unnest(${ids}::uuid[], ${reasons}::text[]) as v(id, reason) where d.outbox_message_id = v.id`.execute(tx);
  });
}

/** The row stays "sending" with the reason: the next attempt asks the provider before sending again. */
async function noteTransientError(db: Db, retry: { id: string; reason: string }[]) {
  if (!retry.length) return;
  await sql`
    update outbox_messages o set error = v.reason
    from unnest(${retry.map((r) => r.id)}::uuid[], ${retry.map((r) => r.reason)}::text[]) as v(id, reason)
    where o.id = v.id`.execute(db);
}

/**
 * A provider's later word on a message (Twilio's status callback, a Postmark bounce). A message
 * still "sending" is one whose worker died after the provider took it: this reconciles it as sent.
 * A failure marks the message and its delivery failed, with the provider's reason for the owner.
 */
export async function applyProviderStatus(
  db: Db,
  update: { outboxId: string | null; providerMessageId: string; failed: boolean; reason: string },
  now = new Date(),
) {
  await inTransaction(db, async (tx) => {
    const byId = update.outboxId && isUuid(update.outboxId);
    const message = await tx
      .selectFrom("outbox_messages")
      .select(["id", "status", "provider_message_id"])
      .where(byId ? "id" : "provider_message_id", "=", byId ? update.outboxId! : update.providerMessageId)
      .forUpdate()
      .executeTakeFirst();
    if (!message || (message.provider_message_id && message.provider_message_id !== update.providerMessageId)) return;
    const delivery = tx.updateTable("deliveries").where("outbox_message_id", "=", message.id);
    if (update.failed) {
      await tx
        .updateTable("outbox_messages")
        .set({ status: "failed", provider_message_id: update.providerMessageId, error: update.reason })
        .where("id", "=", message.id)
        .execute();
      await delivery
        .set({ status: "failed", provider_message_id: update.providerMessageId, error: update.reason, updated_at: now })
        .execute();
    } else if (message.status === "sending" || message.status === "queued") {
      await tx
        .updateTable("outbox_messages")
        .set({
          status: "sent",
          provider_message_id: update.providerMessageId,
          sent_at: now,
          error: null,
          text_body: "",
          html_body: null,
        })
        .where("id", "=", message.id)
        .execute();
      await delivery
        .set({ status: "sent", provider_message_id: update.providerMessageId, sent_at: now, updated_at: now })
        .execute();
    }
  });
}

/**
 * Messages of the channels that use the built-in outbox, newest first: what /dev/outbox shows.
 * A channel with a real provider is left out entirely (its queued bodies included).
 */
export async function listOutboxMessages(db: DbOrTx, channels: Channel[], limit = 200) {
  if (!channels.length) return [];
  return db
    .selectFrom("outbox_messages")
    .select([
      "id",
      "channel",
      "direction",
      "to_address",
      "subject",
      "text_body",
      "html_body",
      "status",
      "provider_message_id",
      "headers",
      "created_at",
    ])
    .where("channel", "in", channels)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}
