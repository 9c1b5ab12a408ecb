import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";

/**
 * Creates the account unless the address already has one (any letter case). The email is confirmed
 * later, when its owner signs in with the emailed code.
 */
export async function registerUser(
  db: DbOrTx,
  input: { firstName: string; lastName: string; nickname: string; email: string; language: string },
): Promise<{ created: boolean }> {
  const language: Language = input.language === "hi" ? "hi" : "en";
  const inserted = await db
    .insertInto("users")
    .values({ email: input.email.trim(), first_name: input.firstName, last_name: input.lastName, nickname: input.nickname, language })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  return { created: Boolean(inserted) };
}
