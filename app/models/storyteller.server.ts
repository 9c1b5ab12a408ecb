import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";
import { inTransaction } from "../../db/client";
import type { Frequency } from "../../db/schema";
import { ownedStorytellerIds, visibleStorytellerIds } from "./access.server";
import { emailOptedOut } from "./capability-links.server";
import { nextSendAt } from "./schedule";

/** The overview's cards: every Storyteller the user may see, with next/last prompt and answers, in one query. */
export async function listStorytellerCards(db: DbOrTx, userId: string) {
  return db
    .selectFrom("storytellers as s")
    .select((eb) => [
      "s.id",
      "s.nickname",
      "s.first_name",
      "s.relationship",
      "s.delivery_method",
      "s.unsubscribed_at",
      "s.sms_consent",
      eb
        .selectFrom("prompts as p")
        .select("p.text")
        .whereRef("p.storyteller_id", "=", "s.id")
        .where("p.sent_at", "is", null)
        .orderBy("p.queue_position")
        .limit(1)
        .as("next_prompt"),
      eb
        .selectFrom("prompts as p")
        .select("p.text")
        .whereRef("p.storyteller_id", "=", "s.id")
        .where("p.sent_at", "is not", null)
        .orderBy("p.sent_at", "desc")
        .limit(1)
        .as("last_sent_prompt"),
      eb.selectFrom("answers as a").select(sql<number>`count(*)::int`.as("n")).whereRef("a.storyteller_id", "=", "s.id").as("answered"),
    ])
    .where("s.id", "in", visibleStorytellerIds(db, userId))
    .orderBy("s.created_at")
    .execute();
}

export const BOARD_MAX_COLUMNS = 16;

/** The board: up to 16 Storytellers as columns, their prompts as cards (unsent first), in three queries. */
export async function getBoard(db: DbOrTx, userId: string) {
  const [columns, total] = await Promise.all([
    db.selectFrom("storytellers").select(["id", "nickname"]).where("id", "in", visibleStorytellerIds(db, userId)).orderBy("created_at").limit(BOARD_MAX_COLUMNS).execute(),
    db.selectFrom("storytellers").select(sql<number>`count(*)::int`.as("n")).where("id", "in", visibleStorytellerIds(db, userId)).executeTakeFirstOrThrow(),
  ]);
  const cards = columns.length
    ? await db
        .selectFrom("prompts")
        .select(["id", "storyteller_id", "text", "sent_at", "created_at"])
        .where("storyteller_id", "in", columns.map((c) => c.id))
        .orderBy(sql`sent_at is not null`)
        .orderBy("queue_position")
        .execute()
    : [];
  return {
    columns: columns.map((column) => ({ ...column, cards: cards.filter((card) => card.storyteller_id === column.id) })),
    hiddenColumns: Math.max(0, Number(total.n) - columns.length),
  };
}

/** A Storyteller the user owns (only owners edit or delete), or a 404. */
export async function getOwnedStoryteller(db: DbOrTx, userId: string, storytellerId: string) {
  const row = await db
    .selectFrom("storytellers as s")
    .innerJoin("schedules as sc", "sc.storyteller_id", "s.id")
    .select(["s.id", "s.nickname", "s.first_name", "s.relationship", "s.delivery_method", "s.email", "s.phone_e164", "s.time_zone", "s.language", "sc.first_prompt_date", "sc.frequency"])
    .where("s.id", "=", storytellerId)
    .where("s.id", "in", ownedStorytellerIds(db, userId))
    .executeTakeFirst();
  if (!row) throw new Response(null, { status: 404 });
  return row;
}

export type StorytellerFields = { nickname: string; firstName: string; relationship?: string; deliveryMethod: "email" | "sms"; email?: string; phoneE164: string | null; timeZone: string; language: "en" | "hi" };

/** The form's fields as storytellers columns (shared by creating and editing). */
export function storytellerColumns(fields: StorytellerFields) {
  return {
    nickname: fields.nickname,
    first_name: fields.firstName,
    relationship: fields.relationship ?? "",
    delivery_method: fields.deliveryMethod,
    email: fields.email ?? null,
    phone_e164: fields.phoneE164,
    time_zone: fields.timeZone,
    language: fields.language,
  };
}

/** id and language of a Storyteller the user may see, or a 404; for pages that need no more. */
export async function getVisibleStoryteller(db: DbOrTx, userId: string, storytellerId: string) {
  const row = await db
    .selectFrom("storytellers")
    .select(["id", "nickname", "language"])
    .where("id", "=", storytellerId)
    .where("id", "in", visibleStorytellerIds(db, userId))
    .executeTakeFirst();
  if (!row) throw new Response(null, { status: 404 });
  return row;
}

/**
 * Saves an edit. A changed schedule (first date, frequency or time zone) is recomputed from now; a
 * new email address starts without the old one's bounce, and unsubscribed only if it ever
 * unsubscribed; a new number (or a switch
 * to texts) needs a fresh consent, which the caller requests with requestSmsConsent.
 * Returns whether that consent is needed.
 */
export async function updateStoryteller(
  db: DbOrTx,
  storytellerId: string,
  fields: StorytellerFields,
  schedule: { firstPromptDate: string; frequency: Frequency },
  now = new Date(),
): Promise<{ needsSmsConsent: boolean }> {
  return inTransaction(db, async (tx) => {
    const current = await tx
      .selectFrom("storytellers as s")
      .innerJoin("schedules as sc", "sc.storyteller_id", "s.id")
      .select(["s.delivery_method", "s.email", "s.phone_e164", "s.time_zone", "sc.first_prompt_date", "sc.frequency"])
      .where("s.id", "=", storytellerId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const columns = storytellerColumns(fields);
    const newEmail = (columns.email ?? "").toLowerCase() !== (current.email ?? "").toLowerCase();
    const needsSmsConsent = columns.delivery_method === "sms" && (current.delivery_method !== "sms" || columns.phone_e164 !== current.phone_e164);
    await tx
      .updateTable("storytellers")
      .set({
        ...columns,
        // A new address starts clean, unless it unsubscribed before (an unsubscribe is the address's).
        ...(newEmail ? { unsubscribed_at: (await emailOptedOut(tx, columns.email)) ? now : null, email_undeliverable_at: null } : {}),
        ...(needsSmsConsent ? { sms_consent: "none" as const } : {}),
        updated_at: now,
      })
      .where("id", "=", storytellerId)
      .execute();
    const rule = { firstPromptDate: schedule.firstPromptDate, frequency: schedule.frequency, timeZone: columns.time_zone };
    const changed = rule.firstPromptDate !== current.first_prompt_date || rule.frequency !== current.frequency || rule.timeZone !== current.time_zone;
    await tx
      .updateTable("schedules")
      .set({ first_prompt_date: rule.firstPromptDate, frequency: rule.frequency, ...(changed ? { next_send_at: nextSendAt(rule, now) } : {}), updated_at: now })
      .where("storyteller_id", "=", storytellerId)
      .execute();
    return { needsSmsConsent };
  });
}

/** Pausing stops scheduled sends (the tick skips the row); resuming picks the next date after now. */
export async function setPaused(db: DbOrTx, userId: string, storytellerId: string, paused: boolean, now = new Date()) {
  const row = await db
    .selectFrom("schedules as sc")
    .innerJoin("storytellers as s", "s.id", "sc.storyteller_id")
    .select(["sc.first_prompt_date", "sc.frequency", "s.time_zone"])
    .where("sc.storyteller_id", "=", storytellerId)
    .where("sc.storyteller_id", "in", ownedStorytellerIds(db, userId))
    .executeTakeFirst();
  if (!row) throw new Response(null, { status: 404 });
  await db
    .updateTable("schedules")
    .set(
      paused
        ? { paused_at: now, updated_at: now }
        : { paused_at: null, next_send_at: nextSendAt({ firstPromptDate: row.first_prompt_date, frequency: row.frequency, timeZone: row.time_zone }, now), updated_at: now },
    )
    .where("storyteller_id", "=", storytellerId)
    .execute();
}
