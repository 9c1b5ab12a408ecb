import { DateTime } from "luxon";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { enqueueJob } from "~/services/jobs.server";
import { queueEmail, queueSms } from "~/services/outbox.server";
import { isUuid } from "~/utils/ids";
import { type DbOrTx, inTransaction } from "../../db/client";
import { answerVisibleTo, ownedStorytellerIds } from "./access.server";
import { isInsideSendingWindow, nextWindowOpening } from "./schedule";

/**
 * Families answer back (decision 048): on an answer they may hear, family members
 * leave a heart (one each) or a short note. The Storyteller hears of them in one gentle message a
 * day at most, in her language, in the evening (18:00 where she lives), naming only who reacted and
 * the question; the owner can turn it off per Storyteller.
 */

/** When the day's message goes out, her local time: inside the 08:00–21:00 window for texts. */
const DIGEST_HOUR = 18;

/** An answer the user may react to: not private, of a Storyteller they may see (not their own stories). */
function reactableAnswer(db: DbOrTx, userId: string, answerId: string) {
  return db
    .selectFrom("answers as a")
    .innerJoin("storytellers as s", "s.id", "a.storyteller_id")
    .select(["a.id", "a.storyteller_id", "s.time_zone", "s.reaction_digest_on"])
    .where("a.id", "=", answerId)
    .where("s.is_self", "=", false)
    .where(answerVisibleTo(db, "a", { kind: "family", userId }))
    .executeTakeFirst();
}

/** The next 18:00 where she lives (so every reaction of a day points at the same job time). */
export function nextDigestAt(now: Date, timeZone: string): Date {
  const local = DateTime.fromJSDate(now).setZone(timeZone);
  const today = local.set({ hour: DIGEST_HOUR, minute: 0, second: 0, millisecond: 0 });
  return (today > local ? today : today.plus({ days: 1 })).toJSDate();
}

export type Reaction = { kind: "heart" } | { kind: "unheart" } | { kind: "note"; note: string };
export type ReactResult = { kind: "saved" } | { kind: "not-found" };

/** Saves a heart (once), takes it back, or adds a note; the day's message is queued with it. */
export async function react(
  db: DbOrTx,
  userId: string,
  answerId: string,
  reaction: Reaction,
  now = new Date(),
): Promise<ReactResult> {
  if (!isUuid(answerId)) return { kind: "not-found" };
  return inTransaction(db, async (tx) => {
    const answer = await reactableAnswer(tx, userId, answerId);
    if (!answer) return { kind: "not-found" };
    if (reaction.kind === "unheart") {
      await tx
        .deleteFrom("answer_reactions")
        .where("answer_id", "=", answer.id)
        .where("user_id", "=", userId)
        .where("kind", "=", "heart")
        .execute();
      return { kind: "saved" };
    }
    const inserted = await tx
      .insertInto("answer_reactions")
      .values({
        answer_id: answer.id,
        user_id: userId,
        kind: reaction.kind,
        note: reaction.kind === "note" ? reaction.note : null,
        // With her message off, it is never hers to hear: not later either, when it is turned on.
        digested_at: answer.reaction_digest_on ? null : now,
      })
      .onConflict((oc) => oc.columns(["answer_id", "user_id"]).where("kind", "=", "heart").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted && answer.reaction_digest_on)
      await enqueueJob(
        tx,
        "reactions__digest",
        { storytellerId: answer.storyteller_id },
        { runAt: nextDigestAt(now, answer.time_zone) },
      );
    return { kind: "saved" };
  });
}

export type AnswerReactions = {
  hearts: number;
  heartedByMe: boolean;
  notes: { id: string; author: string; text: string; mine: boolean }[];
};

/** The hearts and notes on these answers (one query), for those the user may hear. */
export async function reactionsOn(
  db: DbOrTx,
  userId: string,
  answerIds: string[],
): Promise<Map<string, AnswerReactions>> {
  const found = new Map<string, AnswerReactions>(
    answerIds.map((id) => [id, { hearts: 0, heartedByMe: false, notes: [] }]),
  );
  if (!answerIds.length) return found;
  const rows = await db
    .selectFrom("answer_reactions as r")
    .innerJoin("answers as a", "a.id", "r.answer_id")
    .innerJoin("users as u", "u.id", "r.user_id")
    .select(["r.id", "r.answer_id", "r.user_id", "r.kind", "r.note", "u.first_name"])
    .where("r.answer_id", "in", answerIds)
    .where(answerVisibleTo(db, "a", { kind: "family", userId }))
    .orderBy("r.created_at")
    .orderBy("r.id")
    .execute();
  for (const row of rows) {
    const entry = found.get(row.answer_id)!;
    if (row.kind === "heart") {
      entry.hearts += 1;
      if (row.user_id === userId) entry.heartedByMe = true;
    } else entry.notes.push({ id: row.id, author: row.first_name, text: row.note ?? "", mine: row.user_id === userId });
  }
  return found;
}

/** The owner's switch for the Storyteller's daily message; null when the user does not own her. */
export async function setReactionDigest(db: DbOrTx, userId: string, storytellerId: string, on: boolean) {
  if (!isUuid(storytellerId)) return null;
  const updated = await db
    .updateTable("storytellers")
    .set({ reaction_digest_on: on })
    .where("id", "=", storytellerId)
    .where("id", "in", ownedStorytellerIds(db, userId))
    .returning("id")
    .executeTakeFirst();
  return updated ? { on } : null;
}

/** "Priya and Aman", "Priya, Aman and Ravi" in the message's language. */
function namesList(names: string[], and: string) {
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} ${and} ${names.at(-1)}`;
}

export type DigestOutcome = "sent" | "nothing-to-do" | "off" | "already-today" | "later" | "unreachable";

/**
 * The day's message for the Storyteller: what the family said since the last one, on her own
 * answers only (never private ones, never anyone else's answers). At most one a local day: a row
 * per (Storyteller, day) decides it, so two runs cannot both send.
 */
export async function sendReactionDigest(
  db: DbOrTx,
  config: Config,
  storytellerId: string,
  now = new Date(),
): Promise<DigestOutcome> {
  return inTransaction(db, async (tx) => {
    const st = await tx
      .selectFrom("storytellers")
      .select([
        "id",
        "language",
        "time_zone",
        "delivery_method",
        "email",
        "phone_e164",
        "sms_consent",
        "unsubscribed_at",
        "email_undeliverable_at",
        "reaction_digest_on",
      ])
      .where("id", "=", storytellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!st) return "nothing-to-do";
    const pending = tx
      .updateTable("answer_reactions as r")
      .from("answers as a")
      .whereRef("a.id", "=", "r.answer_id")
      .where("a.storyteller_id", "=", st.id)
      .where("r.digested_at", "is", null);
    // Turned off: what was waiting is never sent later either.
    if (!st.reaction_digest_on) {
      await pending.set({ digested_at: now }).execute();
      return "off";
    }
    const rows = await tx
      .selectFrom("answer_reactions as r")
      .innerJoin("answers as a", "a.id", "r.answer_id")
      .innerJoin("prompts as p", "p.id", "a.prompt_id")
      .innerJoin("users as u", "u.id", "r.user_id")
      .select(["r.kind", "r.note", "u.first_name", "p.text as question", "a.id as answer_id"])
      .where("a.storyteller_id", "=", st.id)
      .where(answerVisibleTo(tx, "a", { kind: "anyone" }))
      .where("r.digested_at", "is", null)
      .orderBy("r.created_at")
      .execute();
    if (!rows.length) return "nothing-to-do";
    const byText = st.delivery_method === "sms" && !!st.phone_e164 && st.sms_consent === "granted";
    // A run late into the night (a retry, a busy worker) waits for the morning before texting her.
    if (byText && !isInsideSendingWindow(now, st.time_zone)) {
      await enqueueJob(
        tx,
        "reactions__digest",
        { storytellerId: st.id },
        { runAt: nextWindowOpening(now, st.time_zone) },
      );
      return "later";
    }
    const localDay = DateTime.fromJSDate(now).setZone(st.time_zone).toISODate()!;
    const today = await tx
      .insertInto("reaction_digests")
      .values({ storyteller_id: st.id, local_day: localDay, sent_at: now })
      .onConflict((oc) => oc.doNothing())
      .returning("storyteller_id")
      .executeTakeFirst();
    if (!today) {
      // Sent today already: what came since waits for tomorrow evening's message.
      const tomorrow = DateTime.fromJSDate(now).setZone(st.time_zone).plus({ days: 1 }).startOf("day").toJSDate();
      await enqueueJob(
        tx,
        "reactions__digest",
        { storytellerId: st.id },
        { runAt: nextDigestAt(tomorrow, st.time_zone) },
      );
      return "already-today";
    }

    const t = await getServerT(st.language, { config }, "emails");
    const byAnswer = new Map<string, { question: string; names: string[]; notes: string[] }>();
    for (const row of rows) {
      const entry = byAnswer.get(row.answer_id) ?? { question: row.question, names: [], notes: [] };
      if (!entry.names.includes(row.first_name)) entry.names.push(row.first_name);
      if (row.kind === "note" && row.note)
        entry.notes.push(t("reactionDigest.note", { name: row.first_name, note: row.note }));
      byAnswer.set(row.answer_id, entry);
    }
    const lines = [...byAnswer.values()].map(({ question, names, notes }) =>
      [t("reactionDigest.loved", { names: namesList(names, t("reactionDigest.and")), question }), ...notes].join("\n"),
    );
    const everyone = [...new Set(rows.map((row) => row.first_name))];
    if (byText && st.phone_e164) {
      await queueSms(tx, {
        to: st.phone_e164,
        text: t("reactionDigest.sms", { lines: lines.join("\n") }).slice(0, 600),
      });
    } else if (st.email && !st.unsubscribed_at && !st.email_undeliverable_at) {
      await queueEmail(tx, {
        to: st.email,
        subject: t("reactionDigest.subject", { names: namesList(everyone, t("reactionDigest.and")) }),
        text: t("reactionDigest.text", { lines: lines.join("\n\n"), appName: config.APP_NAME }),
      });
    } else {
      await pending.set({ digested_at: now }).execute();
      return "unreachable";
    }
    await pending.set({ digested_at: now }).execute();
    return "sent";
  });
}
