import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { queueEmail } from "~/services/outbox.server";
import { inTransaction } from "../../db/client";
import { newCode, redeemCode } from "./codes.server";

// The code proves control of this new address for this account.
const subjectOf = (userId: string, newEmail: string) => `${userId}\u0000${newEmail}`;

/** Sends a code to the new address; the email changes only once that code comes back. */
export async function requestEmailChange(
  context: AppContext,
  user: { id: string; language: string; first_name: string },
  newEmail: string,
) {
  const { code, stored } = newCode(context.config, "email-change", subjectOf(user.id, newEmail));
  const t = await getServerT(user.language, context, "emails");
  await inTransaction(context.db, async (tx) => {
    // One pending change per account: a new request voids the earlier code.
    await tx
      .insertInto("email_changes")
      .values({ user_id: user.id, new_email: newEmail, ...stored })
      .onConflict((oc) =>
        oc.column("user_id").doUpdateSet((eb) => ({
          new_email: eb.ref("excluded.new_email"),
          code_hash: eb.ref("excluded.code_hash"),
          attempts: 0,
          expires_at: eb.ref("excluded.expires_at"),
        })),
      )
      .execute();
    await queueEmail(tx, {
      to: newEmail,
      subject: t("emailChange.subject"),
      text: t("emailChange.text", { name: user.first_name, code }),
    });
  });
}

export async function pendingEmailChange(context: Pick<AppContext, "db">, userId: string) {
  return context.db
    .selectFrom("email_changes")
    .select("new_email")
    .where("user_id", "=", userId)
    .where("expires_at", ">", new Date())
    .executeTakeFirst();
}

/** Applies the change if the code matches; a wrong code counts against a small number of tries. */
export async function confirmEmailChange(
  context: AppContext,
  userId: string,
  code: string,
): Promise<"changed" | "wrong" | "expired" | "taken"> {
  return inTransaction(context.db, async (tx) => {
    const pending = await tx
      .selectFrom("email_changes")
      .selectAll()
      .where("user_id", "=", userId)
      .forUpdate()
      .executeTakeFirst();
    const outcome = await redeemCode(
      context.config,
      "email-change",
      subjectOf(userId, pending?.new_email ?? ""),
      pending,
      code,
      {
        countAttempt: (_row, attempts) =>
          tx.updateTable("email_changes").set({ attempts }).where("user_id", "=", userId).execute(),
        spend: () => tx.deleteFrom("email_changes").where("user_id", "=", userId).execute(),
      },
    );
    if (outcome !== "ok" || !pending) return outcome === "ok" ? "expired" : outcome;
    const clash = await tx
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", pending.new_email.toLowerCase()))
      .where("id", "<>", userId)
      .executeTakeFirst();
    if (clash) return "taken";
    await tx
      .updateTable("users")
      .set({ email: pending.new_email, email_verified_at: new Date(), updated_at: new Date() })
      .where("id", "=", userId)
      .execute();
    return "changed";
  });
}
