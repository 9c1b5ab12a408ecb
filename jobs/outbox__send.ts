import type { Task } from "graphile-worker";
import { z } from "zod";
import type { JobDeps } from "./task-list";

const payloadSchema = z.object({ messageId: z.uuid() });

/**
 * Sends one outbox row through the configured provider, at most once: the row is claimed
 * (queued → sending) before the provider is called. A row found still "sending" belongs to an
 * attempt that died mid-send; the provider may have accepted it, so it is marked failed, never
 * sent blindly again. A provider error puts the row back to queued for graphile-worker's retry.
 */
export const outboxSend =
  ({ db, mail, sms }: JobDeps): Task =>
  async (payload, helpers) => {
    const { messageId } = payloadSchema.parse(payload);
    const message = await db
      .updateTable("outbox_messages")
      .set({ status: "sending" })
      .where("id", "=", messageId)
      .where("status", "=", "queued")
      .returningAll()
      .executeTakeFirst();
    if (!message) {
      await db
        .updateTable("outbox_messages")
        .set({ status: "failed", error: "interrupted while sending; not resent to avoid a duplicate" })
        .where("id", "=", messageId)
        .where("status", "=", "sending")
        .execute();
      return;
    }

    const provider = message.channel === "email" ? mail : sms;
    let providerMessageId: string;
    try {
      providerMessageId =
        message.channel === "email"
          ? await mail.send({
              id: message.id,
              to: message.to_address,
              subject: message.subject ?? "",
              text: message.text_body,
              html: message.html_body,
              headers: message.headers,
            })
          : await sms.send({ id: message.id, to: message.to_address, text: message.text_body });
    } catch (error) {
      const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
      await db
        .updateTable("outbox_messages")
        .set({ status: lastAttempt ? "failed" : "queued", error: String((error as Error).message ?? error).slice(0, 500) })
        .where("id", "=", message.id)
        .execute();
      throw error;
    }

    await db
      .updateTable("outbox_messages")
      .set({
        status: "sent",
        provider: provider.name,
        provider_message_id: providerMessageId,
        sent_at: new Date(),
        error: null,
        // Once a real provider has the message, its body (sign-in codes, links) is not kept here.
        ...(provider.name !== "outbox" ? { text_body: "", html_body: null } : {}),
      })
      .where("id", "=", message.id)
      .execute();
  };
