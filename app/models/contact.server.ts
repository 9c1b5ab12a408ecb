import { queueEmail } from "~/services/outbox.server";
import { type DbOrTx, inTransaction } from "../../db/client";

export type ContactMessageInput = { name: string; email: string; message: string; language: string };

/** Stores the message and queues the email to the team in one transaction: both or neither. */
export async function saveContactMessage(
  db: DbOrTx,
  input: ContactMessageInput,
  team: { to: string; appName: string },
) {
  return inTransaction(db, async (tx) => {
    const { id } = await tx.insertInto("contact_messages").values(input).returning("id").executeTakeFirstOrThrow();
    await queueEmail(tx, {
      to: team.to,
      subject: `[${team.appName}] Contact form: ${input.name}`,
      text: `From: ${input.name} <${input.email}>\nLanguage: ${input.language}\nMessage id: ${id}\n\n${input.message}\n`,
      headers: { "Reply-To": input.email },
    });
    return id;
  });
}
