import { type DbOrTx, inTransaction } from "../../db/client";
import { enqueueJob } from "~/utils/jobs.server";

export type OutgoingEmail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
};

export type OutgoingSms = { to: string; text: string };

const MAX_SEND_ATTEMPTS = 10;

/** Stores the email and queues its send job in one transaction (or in the caller's). */
export async function queueEmail(db: DbOrTx, email: OutgoingEmail): Promise<string> {
  return queueMessage(db, {
    channel: "email",
    to_address: email.to,
    subject: email.subject,
    text_body: email.text,
    html_body: email.html ?? null,
    headers: JSON.stringify(email.headers ?? {}),
  });
}

export async function queueSms(db: DbOrTx, sms: OutgoingSms): Promise<string> {
  return queueMessage(db, { channel: "sms", to_address: sms.to, subject: null, text_body: sms.text, html_body: null, headers: "{}" });
}

async function queueMessage(
  db: DbOrTx,
  row: { channel: "email" | "sms"; to_address: string; subject: string | null; text_body: string; html_body: string | null; headers: string },
): Promise<string> {
  return inTransaction(db, async (tx) => {
    const { id } = await tx.insertInto("outbox_messages").values(row).returning("id").executeTakeFirstOrThrow();
    await enqueueJob(tx, "outbox__send", { messageId: id }, { maxAttempts: MAX_SEND_ATTEMPTS });
    return id;
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
