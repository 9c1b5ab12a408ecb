import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { queueEmail } from "~/services/outbox.server";
import { inTransaction } from "../../db/client";

const VALIDITY_MS = 15 * 60 * 1000;
const MAX_ATTEMPTS = 5;

const hashCode = (secret: string, userId: string, code: string) => createHmac("sha256", secret).update(`${userId}:${code}`).digest("hex");

/** Sends a code to the new address; the email changes only once that code comes back. */
export async function requestEmailChange(context: AppContext, user: { id: string; language: string; first_name: string }, newEmail: string) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const t = await getServerT(user.language, context, "emails");
  await inTransaction(context.db, async (tx) => {
    await tx
      .insertInto("email_changes")
      .values({ user_id: user.id, new_email: newEmail, code_hash: hashCode(context.config.SESSION_SECRET, user.id, code), expires_at: new Date(Date.now() + VALIDITY_MS) })
      .onConflict((oc) => oc.column("user_id").doUpdateSet((eb) => ({ new_email: eb.ref("excluded.new_email"), code_hash: eb.ref("excluded.code_hash"), attempts: 0, expires_at: eb.ref("excluded.expires_at") })))
      .execute();
    await queueEmail(tx, { to: newEmail, subject: t("emailChange.subject"), text: t("emailChange.text", { name: user.first_name, code }) });
  });
}

export async function pendingEmailChange(context: Pick<AppContext, "db">, userId: string) {
  return context.db.selectFrom("email_changes").select("new_email").where("user_id", "=", userId).where("expires_at", ">", new Date()).executeTakeFirst();
}

/** Applies the change if the code matches; a wrong code counts against a small number of tries. */
export async function confirmEmailChange(context: AppContext, userId: string, code: string): Promise<"changed" | "wrong" | "expired" | "taken"> {
  return inTransaction(context.db, async (tx) => {
    const pending = await tx.selectFrom("email_changes").selectAll().where("user_id", "=", userId).forUpdate().executeTakeFirst();
    if (!pending || pending.expires_at < new Date() || pending.attempts >= MAX_ATTEMPTS) return "expired";
    const expected = Buffer.from(pending.code_hash, "hex");
    const given = Buffer.from(hashCode(context.config.SESSION_SECRET, userId, code.trim()), "hex");
    if (!timingSafeEqual(expected, given)) {
      await tx.updateTable("email_changes").set({ attempts: pending.attempts + 1 }).where("user_id", "=", userId).execute();
      return "wrong";
    }
    const clash = await tx
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", pending.new_email.toLowerCase()))
      .where("id", "<>", userId)
      .executeTakeFirst();
    await tx.deleteFrom("email_changes").where("user_id", "=", userId).execute();
    if (clash) return "taken";
    await tx.updateTable("users").set({ email: pending.new_email, email_verified_at: new Date(), updated_at: new Date() }).where("id", "=", userId).execute();
    return "changed";
  });
}
