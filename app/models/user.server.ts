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

export type AccountDetails = Awaited<ReturnType<typeof getAccount>>;

export async function getAccount(db: DbOrTx, userId: string) {
  return db
    .selectFrom("users")
    .select(["id", "email", "first_name", "last_name", "nickname", "language", "phone_e164", "profile_pic_key", "notify_activity", "notify_application"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
}

export async function updateProfile(
  db: DbOrTx,
  userId: string,
  fields: { firstName: string; lastName: string; nickname: string; language: Language; phoneE164: string | null; profilePicKey?: string },
) {
  await db
    .updateTable("users")
    .set({
      first_name: fields.firstName,
      last_name: fields.lastName,
      nickname: fields.nickname,
      language: fields.language,
      phone_e164: fields.phoneE164,
      ...(fields.profilePicKey ? { profile_pic_key: fields.profilePicKey } : {}),
      updated_at: new Date(),
    })
    .where("id", "=", userId)
    .execute();
}

export async function updatePreferences(db: DbOrTx, userId: string, preferences: { activity: boolean; application: boolean }) {
  await db
    .updateTable("users")
    .set({ notify_activity: preferences.activity, notify_application: preferences.application, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

/** Counts for the profile page, in one query. */
export async function getProfileCounts(db: DbOrTx, userId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom("storytellers").select(sql<number>`count(*)::int`.as("n")).where("owner_id", "=", userId).as("storytellers"),
      eb.selectFrom("group_members").select(sql<number>`count(*)::int`.as("n")).where("user_id", "=", userId).as("groups"),
      eb
        .selectFrom("answers")
        .innerJoin("storytellers", "storytellers.id", "answers.storyteller_id")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("storytellers.owner_id", "=", userId)
        .where("answers.is_private", "=", false)
        .as("answers"),
    ])
    .executeTakeFirstOrThrow();
  return { storytellers: Number(row.storytellers ?? 0), groups: Number(row.groups ?? 0), answers: Number(row.answers ?? 0) };
}
