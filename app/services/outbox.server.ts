import type { MailService } from "~/services/mail.server";
import type { SmsService } from "~/services/sms.server";
import { isUuid } from "~/utils/ids";
import { type Db, type DbOrTx, inTransaction } from "../../db/client";
import type { OutboxMessage } from "../../db/schema";
import { enqueueJob } from "./jobs.server";
import { PermanentSendError, sendErrorReason } from "./send-errors.server";

export type OutgoingEmail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
};

export type OutgoingSms = { to: string; text: string };

/** When to send and whether the outbox__send job is queued for it (a delivery's job sends its own). */
export type QueueOptions = { runAt?: Date; withJob?: boolean };

/** Stores the email and queues its send job in one transaction (or in the caller's). */
export async function queueEmail(db: DbOrTx, email: OutgoingEmail, options: QueueOptions = {}): Promise<string> {
  const row = {
    channel: "email" as const,
    to_address: email.to,
    subject: email.subject,
    text_body: email.text,
    html_body: email.html ?? null,
    headers: JSON.stringify(email.headers ?? {}),
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

async function queueMessage(
  db: DbOrTx,
  row: {
    channel: "email" | "sms";
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
    if (withJob) await enqueueJob(tx, "outbox__send", { messageId: id }, { runAt });
    return id;
  });
}

export type SendDeps = { db: Db; mail: MailService; sms: SmsService };
export type SendOutcome = "sent" | "failed" | "nothing-to-do";

/**
 * Sends one outbox message at most once. The row is claimed (queued → sending) before the provider
 * is called. Finding it still "sending" means an earlier attempt died or failed mid-send: the
 * provider is asked whether it accepted the message, and only if it did not is it sent again. A delivery that
 * rides on this message gets the same final state. Throws on a transient failure so the caller's
 * job retries; `lastAttempt` turns that into "failed".
 */
export async function sendOutboxMessage(
  deps: SendDeps,
  messageId: string,
  { lastAttempt }: { lastAttempt: boolean },
): Promise<SendOutcome> {
  const { db } = deps;
  let message = await db
    .updateTable("outbox_messages")
    .set({ status: "sending", claimed_at: new Date() })
    .where("id", "=", messageId)
    .where("status", "=", "queued")
    .returningAll()
    .executeTakeFirst();

  if (!message) {
    const current = await db.selectFrom("outbox_messages").selectAll().where("id", "=", messageId).executeTakeFirst();
    if (!current || current.status !== "sending") return "nothing-to-do";
    const accepted = await providerFor(deps, current).findSent(
      asProviderMessage(current),
      current.claimed_at ?? current.created_at,
    );
    if (accepted) return markSent(deps, current, accepted);
    message = await db
      .updateTable("outbox_messages")
      .set({ claimed_at: new Date() })
      .where("id", "=", messageId)
      .where("status", "=", "sending")
      .returningAll()
      .executeTakeFirst();
    if (!message) return "nothing-to-do";
  }

  let providerMessageId: string;
  try {
    const provider = providerFor(deps, message);
    providerMessageId = await provider.send(asProviderMessage(message));
  } catch (error) {
    const permanent = error instanceof PermanentSendError;
    if (permanent || lastAttempt) {
      await markFailed(db, message.id, sendErrorReason(error));
      if (permanent) return "failed";
    } else {
      // A timeout or a dropped connection may come after the provider took the message: the row
      // stays "sending", so the retry asks the provider (findSent) before sending again.
      await db
        .updateTable("outbox_messages")
        .set({ error: sendErrorReason(error) })
        .where("id", "=", message.id)
        .execute();
    }
    throw error;
  }
  return markSent(deps, message, providerMessageId);
}

const providerFor = (deps: SendDeps, message: OutboxMessage) => (message.channel === "email" ? deps.mail : deps.sms);

const asProviderMessage = (message: OutboxMessage) => ({
  id: message.id,
  to: message.to_address,
  subject: message.subject ?? "",
  text: message.text_body,
  html: message.html_body,
  headers: message.headers,
});

async function markSent(deps: SendDeps, message: OutboxMessage, providerMessageId: string): Promise<SendOutcome> {
  const provider = providerFor(deps, message);
  const now = new Date();
  await inTransaction(deps.db, async (tx) => {
    // Only from "sending": a failure the provider reported meanwhile (status callback) stands.
    const updated = await tx
      .updateTable("outbox_messages")
      .set({
        status: "sent",
        provider: provider.name,
        provider_message_id: providerMessageId,
        sent_at: now,
        error: null,
        // Once a real provider has the message, its body (sign-in codes, links) is not kept here.
        ...(provider.name !== "outbox" ? { text_body: "", html_body: null } : {}),
      })
      .where("id", "=", message.id)
      .where("status", "=", "sending")
      .executeTakeFirst();
    if (!updated.numUpdatedRows) return;
    await tx
      .updateTable("deliveries")
      .set({ status: "sent", provider_message_id: providerMessageId, sent_at: now, error: null, updated_at: now })
      .where("outbox_message_id", "=", message.id)
      .execute();
  });
  return "sent";
}

async function markFailed(db: Db, messageId: string, reason: string) {
  await inTransaction(db, async (tx) => {
    await tx
      .updateTable("outbox_messages")
      .set({ status: "failed", error: reason })
      .where("id", "=", messageId)
      .execute();
    await tx
      .updateTable("deliveries")
      .set({ status: "failed", error: reason, updated_at: new Date() })
      .where("outbox_message_id", "=", messageId)
      .execute();
  });
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
export async function listOutboxMessages(db: DbOrTx, channels: ("email" | "sms")[], limit = 200) {
  if (!channels.length) return [];
  return db
    .selectFrom("outbox_messages")
    .select(["id", "channel", "to_address", "subject", "text_body", "html_body", "status", "created_at"])
    .where("channel", "in", channels)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}
