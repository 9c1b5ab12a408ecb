import type { DbOrTx } from "../../db/client";

/**
 * An address that bounced for good or complained of spam: every Storyteller using it (in any letter
 * case) is marked undeliverable, so nothing more is sent there and the owner sees why. A second
 * bounce keeps the first time.
 */
export async function markEmailUndeliverable(db: DbOrTx, address: string, now = new Date()) {
  await db
    .updateTable("storytellers")
    .set({ email_undeliverable_at: now, updated_at: now })
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", address.toLowerCase()))
    .where("email_undeliverable_at", "is", null)
    .execute();
}
