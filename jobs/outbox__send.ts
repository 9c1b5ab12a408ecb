import type { Task } from "graphile-worker";
import { z } from "zod";
import type { JobDeps } from "./task-list";

const payloadSchema = z.object({ messageId: z.uuid() });

/**
 * Sends one outbox row through the configured provider. A row that is no longer queued was sent
 * already (a retried or duplicate job), so it is left alone.
 */
export const outboxSend =
  ({ db, mail, sms }: JobDeps): Task =>
  async (payload, helpers) => {
    const { messageId } = payloadSchema.parse(payload);
    const message = await db.selectFrom("outbox_messages").selectAll().where("id", "=", messageId).executeTakeFirst();
    if (!message || message.status !== "queued") return;

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
        .set({ error: String((error as Error).message ?? error).slice(0, 500), ...(lastAttempt ? { status: "failed" } : {}) })
        .where("id", "=", message.id)
        .execute();
      throw error;
    }

    const realProvider = provider.name !== "outbox";
    await db
      .updateTable("outbox_messages")
      .set({
        status: "sent",
        provider: provider.name,
        provider_message_id: providerMessageId,
        sent_at: new Date(),
        error: null,
        // Once a real provider has the message, its body (sign-in codes, links) is not kept here.
        ...(realProvider ? { text_body: "", html_body: null } : {}),
      })
      .where("id", "=", message.id)
      .execute();
  };
