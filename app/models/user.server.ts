import { sql } from "kysely";
import type { AppContext } from "~/context.server";
import { currentZoneName } from "~/utils/time-zones";
import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";
import { memberGroupIds, ownedStorytellerIds, sharedAnswer } from "./access.server";
import { deleteWithAnswerFiles } from "./answer.server";
import { isTimeZone } from "./storyteller.server";

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
    .values({
      email: input.email.trim(),
      first_name: input.firstName,
      last_name: input.lastName,
      nickname: input.nickname,
      language,
    })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  return { created: Boolean(inserted) };
}

export async function getAccount(db: DbOrTx, userId: string) {
  return db
    .selectFrom("users")
    .select([
      "id",
      "email",
      "first_name",
      "last_name",
      "nickname",
      "language",
      "phone_e164",
      "profile_pic_key",
      "notify_activity",
      "notify_application",
      "time_zone",
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
}

export async function updateProfile(
  db: DbOrTx,
  userId: string,
  fields: {
    firstName: string;
    lastName: string;
    nickname: string;
    language: Language;
    phoneE164: string | null;
    profilePicKey?: string;
  },
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

export async function updatePreferences(
  db: DbOrTx,
  userId: string,
  preferences: { activity: boolean; application: boolean },
) {
  await db
    .updateTable("users")
    .set({ notify_activity: preferences.activity, notify_application: preferences.application, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

/** The language the user reads pages and emails in (the language menu saves it when signed in). */
/**
 * Whether this account runs the site: one of ADMIN_EMAILS, or, without that list, the first account
 * made. Only they are shown what to install on the server; the family is told what they can do.
 */
export async function isSiteAdmin(
  context: Pick<AppContext, "db" | "config">,
  user: { id: string; email: string },
): Promise<boolean> {
  const listed = context.config.ADMIN_EMAILS;
  if (listed) return listed.includes(user.email.toLowerCase());
  const first = await context.db
    .selectFrom("users")
    .select("id")
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return first?.id === user.id;
}

export async function updateLanguage(db: DbOrTx, userId: string, language: Language) {
  await db.updateTable("users").set({ language, updated_at: new Date() }).where("id", "=", userId).execute();
}

/**
 * The zone the user reads dates in (decision 069). `whenUnset`: their browser's report on a first
 * visit, which never overrides a zone already there (one chosen in Settings). False for a name that
 * is no IANA zone.
 */
export async function setTimeZone(db: DbOrTx, userId: string, zone: string, options: { whenUnset?: boolean } = {}) {
  if (!isTimeZone(zone)) return false;
  let query = db
    .updateTable("users")
    .set({ time_zone: currentZoneName(zone), updated_at: new Date() })
    .where("id", "=", userId);
  if (options.whenUnset) query = query.where("time_zone", "is", null);
  await query.execute();
  return true;
}

/** The storage key of the user's profile photo, or null when they have none. */
export async function profilePhotoKey(db: DbOrTx, userId: string) {
  const row = await db.selectFrom("users").select("profile_pic_key").where("id", "=", userId).executeTakeFirst();
  return row?.profile_pic_key ?? null;
}

/**
 * Counts for the profile page, in one query: own Storytellers, groups, and their non-private answers
 * (not the is_self row of the user's own stories, nor its answers: decision 017).
 */
export async function getProfileCounts(db: DbOrTx, userId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom(ownedStorytellerIds(db, userId).where("storytellers.is_self", "=", false).as("own"))
        .select(sql<number>`count(*)::int`.as("n"))
        .as("storytellers"),
      eb
        .selectFrom(memberGroupIds(db, userId).as("member_of"))
        .select(sql<number>`count(*)::int`.as("n"))
        .as("groups"),
      eb
        .selectFrom("answers")
        .select(sql<number>`count(*)::int`.as("n"))
        .where(
          "answers.storyteller_id",
          "in",
          ownedStorytellerIds(db, userId).where("storytellers.is_self", "=", false),
        )
        .where(sharedAnswer("answers"))
        .as("answers"),
    ])
    .executeTakeFirstOrThrow();
  return {
    storytellers: Number(row.storytellers ?? 0),
    groups: Number(row.groups ?? 0),
    answers: Number(row.answers ?? 0),
  };
}

/**
 * Deletes the account and everything it owns (the database cascades), then the recordings of its
 * Storytellers and its photo from storage, once no row points at them.
 */
export async function deleteUserAccount(services: Pick<AppContext, "db" | "storage">, userId: string) {
  const photo = await profilePhotoKey(services.db, userId);
  await deleteWithAnswerFiles(services, { ownerId: userId }, (tx) =>
    tx.deleteFrom("users").where("id", "=", userId).execute(),
  );
  if (photo) await services.storage.delete(photo);
}
