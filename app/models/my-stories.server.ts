import { type ExpressionBuilder, sql } from "kysely";
import { log } from "~/services/logger.server";
import { isUuid } from "~/utils/ids";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Database, Language } from "../../db/schema";
import { isOwnAnswer, promptsSentToAccount } from "./access.server";
import { reopenAnswerCode } from "./answer-code.server";
import type { AnswerServices } from "./answer.server";
import { libraryQueueItems } from "./prompt-library.server";
import { wordsColumnsOf } from "./transcript-edit.server";

/**
 * My Stories (decision 017): the stories I recorded myself, which are ordinary prompts and answers
 * under my one is_self Storyteller row, and the questions other people sent to my address (their
 * record links went there: promptsSentToAccount), which I may answer here with the same recorder as
 * the record link. "Mine" for an answer is isOwnAnswer (recorded for my address, decisions 012 and
 * 063) or being under my is_self row.
 */

type Me = { id: string; email: string };
type MeInFull = Me & { first_name: string; nickname: string; language: Language };

/** The user's is_self Storyteller row (as a subquery). */
function selfStorytellerIds(db: DbOrTx, userId: string) {
  return db
    .selectFrom("storytellers")
    .select("storytellers.id")
    .where("storytellers.owner_id", "=", userId)
    .where("storytellers.is_self", "=", true);
}

/** Answers the user is the Storyteller of: recorded for their address, or under their is_self row. */
function isMyAnswer(db: DbOrTx, me: Me) {
  return (eb: ExpressionBuilder<Database, "answers">) =>
    eb.or([isOwnAnswer("answers", me), eb("answers.storyteller_id", "in", selfStorytellerIds(db, me.id))]);
}

/** Where the self row says it lives; it is never sent anything, so this only has to be a real zone. */
const selfTimeZone = (language: Language) => (language === "hi" ? "Asia/Kolkata" : "America/New_York");

/**
 * The user's is_self Storyteller, made the first time it is needed. Two first stories at once make
 * one row: the insert yields to the partial unique index (storytellers_self_key), and the read that
 * follows sees whichever insert committed.
 */
export async function ensureSelfStoryteller(db: DbOrTx, me: MeInFull): Promise<string> {
  return inTransaction(db, async (tx) => {
    await tx
      .insertInto("storytellers")
      .values({
        owner_id: me.id,
        nickname: me.nickname,
        first_name: me.first_name,
        delivery_method: "email",
        // The address the answers are recorded for (decision 012): the user is this row's Storyteller.
        email: me.email.toLowerCase(),
        time_zone: selfTimeZone(me.language),
        language: me.language,
        is_self: true,
      })
      .onConflict((oc) =>
        oc
          .column("owner_id")
          .where(sql<boolean>`is_self`)
          .doNothing(),
      )
      .execute();
    const row = await selfStorytellerIds(tx, me.id).executeTakeFirstOrThrow();
    return row.id;
  });
}

export type StartStoryInput = { libraryPromptId: number } | { title: string };
export type StartStoryResult = { ok: true; promptId: string } | { ok: false; fieldErrors: Record<string, string[]> };

/**
 * "Record a story": a prompt under the user's is_self Storyteller (made now if need be), asked at
 * once (sent_at = now: nothing is ever sent to it, and answers are accepted only for asked prompts),
 * from the library in the user's language or with their own title (5–300 characters, checked by the
 * schema). The same question not yet recorded is reused rather than asked twice (a double click).
 */
export async function startOwnStory(db: DbOrTx, me: MeInFull, input: StartStoryInput): Promise<StartStoryResult> {
  let item: { text: string; libraryPromptId: number | null };
  if ("libraryPromptId" in input) {
    const [found] = await libraryQueueItems(db, [input.libraryPromptId], me.language);
    if (!found) return { ok: false, fieldErrors: { libraryPromptId: ["stories:record.unknownQuestion"] } };
    item = found;
  } else {
    item = { text: input.title, libraryPromptId: null };
  }
  return inTransaction(db, async (tx) => {
    const storytellerId = await ensureSelfStoryteller(tx, me);
    // Serialises this user's new stories, so the "already there" check below holds.
    await tx.selectFrom("storytellers").select("id").where("id", "=", storytellerId).forUpdate().execute();
    const unrecorded = await tx
      .selectFrom("prompts as p")
      .select("p.id")
      .where("p.storyteller_id", "=", storytellerId)
      .where(sql<string>`lower(p.text)`, "=", item.text.toLowerCase())
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("answers").select("answers.id").whereRef("answers.prompt_id", "=", "p.id"))),
      )
      .executeTakeFirst();
    if (unrecorded) return { ok: true, promptId: unrecorded.id };
    const now = new Date();
    const prompt = await tx
      .insertInto("prompts")
      .values({
        storyteller_id: storytellerId,
        created_by: me.id,
        text: item.text,
        library_prompt_id: item.libraryPromptId,
        is_custom: item.libraryPromptId === null,
        queue_position: sql<number>`(select coalesce(max(queue_position), 0) + 1 from prompts where storyteller_id = ${storytellerId})`,
        sent_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, promptId: prompt.id };
  });
}

/**
 * A prompt the signed-in user may answer from My Stories, or null: one of their own stories (under
 * their is_self row), or a sent question of someone else's Storyteller whose address is the user's
 * (docs/product.md, People). `answer` is the answer standing (none while a new recording was asked for).
 * Both the recording page and the upload server (server/uploads.ts) ask this.
 */
export async function answerablePrompt(db: DbOrTx, me: Me, promptId: string) {
  if (!isUuid(promptId)) return null;
  const row = await db
    .selectFrom("prompts as p")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .leftJoin("answers as a", "a.prompt_id", "p.id")
    .select([
      "p.id",
      "p.text",
      "p.skipped_at",
      "p.rerecord_requested_at",
      "s.is_self",
      "a.id as answer_id",
      "a.is_private",
      sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker_name"),
    ])
    .where("p.id", "=", promptId)
    .where("p.sent_at", "is not", null)
    .where((eb) =>
      eb.or([
        eb.and([eb("s.is_self", "=", true), eb("s.owner_id", "=", me.id)]),
        eb.and([eb("s.is_self", "=", false), eb("p.id", "in", promptsSentToAccount(db, me.email))]),
      ]),
    )
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    text: row.text,
    own: row.is_self,
    askerName: row.asker_name,
    skipped: Boolean(row.skipped_at),
    answer:
      row.answer_id && !row.rerecord_requested_at ? { id: row.answer_id, isPrivate: Boolean(row.is_private) } : null,
  };
}

/** How many stories the page lists at most (newest first). */
const MAX_STORIES = 500;

/**
 * Everything My Stories lists, in two queries whatever the numbers: the stories (answers the user is
 * the Storyteller of, newest first) and the questions still open (their own stories not recorded
 * yet, and questions sent to their address with no answer, or a new recording asked for).
 */
export async function getMyStories(db: DbOrTx, me: Me) {
  const email = me.email.toLowerCase();
  const [answers, open] = await Promise.all([
    db
      .selectFrom("answers")
      .innerJoin("prompts as p", "p.id", "answers.prompt_id")
      .innerJoin("storytellers as s", "s.id", "answers.storyteller_id")
      .innerJoin("users as owner", "owner.id", "s.owner_id")
      .leftJoin("users as asker", "asker.id", "p.created_by")
      .select([
        "answers.id",
        "answers.created_at",
        "answers.is_private",
        "answers.transcript",
        "answers.transcript_status",
        sql<boolean>`answers.storage_key is not null`.as("has_recording"),
        ...wordsColumnsOf("answers"),
        "p.id as prompt_id",
        "p.text as question",
        "s.id as storyteller_id",
        sql<boolean>`s.is_self and s.owner_id = ${me.id}`.as("own"),
        sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker_name"),
      ])
      .where(isMyAnswer(db, me))
      .orderBy("answers.created_at", "desc")
      .orderBy("answers.id", "desc")
      .limit(MAX_STORIES)
      .execute(),
    db
      .selectFrom("prompts as p")
      .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
      .innerJoin("users as owner", "owner.id", "s.owner_id")
      .leftJoin("users as asker", "asker.id", "p.created_by")
      .leftJoin("answers as a", "a.prompt_id", "p.id")
      .select([
        "p.id",
        "p.text",
        "p.sent_at",
        "s.is_self",
        sql<boolean>`p.rerecord_requested_at is not null and a.id is not null`.as("rerecord"),
        sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker_name"),
      ])
      .where("p.sent_at", "is not", null)
      .where((eb) =>
        eb.or([
          eb.and([eb("s.id", "in", selfStorytellerIds(db, me.id)), eb("a.id", "is", null)]),
          eb.and([
            eb("s.is_self", "=", false),
            eb("p.id", "in", promptsSentToAccount(db, email)),
            eb("p.skipped_at", "is", null),
            eb.or([eb("a.id", "is", null), eb("p.rerecord_requested_at", "is not", null)]),
          ]),
        ]),
      )
      .orderBy("p.sent_at", "desc")
      .limit(MAX_STORIES)
      .execute(),
  ]);
  return {
    stories: answers.map((r) => ({
      id: r.id,
      promptId: r.prompt_id,
      question: r.question,
      /** My own story (recorded from My Stories), or my answer to someone's question. */
      own: Boolean(r.own),
      askerName: r.asker_name,
      storytellerId: r.storyteller_id,
      isPrivate: r.is_private,
      /** False for a written answer (a reply by email): words only. */
      hasRecording: r.has_recording,
      answeredAt: r.created_at.toISOString(),
      transcript: r.transcript,
      transcriptStatus: r.transcript_status,
      words: {
        transcript: r.transcript,
        transcript_status: r.transcript_status,
        transcript_segments: r.transcript_segments,
        transcript_edited_at: r.transcript_edited_at,
        transcript_editor: r.transcript_editor,
        heard_again: r.heard_again,
        written_beside: r.written_beside,
      },
    })),
    /** My own stories not recorded yet. */
    drafts: open.filter((p) => p.is_self).map((p) => ({ id: p.id, question: p.text })),
    /** Questions sent to my address that wait for my answer. */
    questions: open
      .filter((p) => !p.is_self)
      .map((p) => ({
        id: p.id,
        question: p.text,
        askerName: p.asker_name,
        sentAt: p.sent_at!.toISOString(),
        rerecord: Boolean(p.rerecord),
      })),
  };
}

/**
 * The private flag of an answer the user is the Storyteller of (false for anyone else's). Making it
 * private also ends its share links, so making it shared again never reopens an old link.
 */
export async function setStoryPrivacy(db: DbOrTx, me: Me, answerId: string, isPrivate: boolean): Promise<boolean> {
  if (!isUuid(answerId)) return false;
  return inTransaction(db, async (tx) => {
    const updated = await tx
      .updateTable("answers")
      .set({ is_private: isPrivate })
      .where("answers.id", "=", answerId)
      .where(isMyAnswer(tx, me))
      .returning("answers.id")
      .executeTakeFirst();
    if (!updated) return false;
    if (isPrivate)
      await tx
        .updateTable("share_links")
        .set({ revoked_at: new Date() })
        .where("answer_id", "=", answerId)
        .where("revoked_at", "is", null)
        .execute();
    return true;
  });
}

export type DeleteStoryResult = "deleted" | "not-found";

/**
 * Delete from My Stories (decision 017): one of the user's own stories goes whole (the prompt, its
 * answer if any); an answer they gave to someone else's question goes alone, and the question is
 * open again for them (and "Not Answered" for the asker). The rows first, then the stored audio.
 */
export async function deleteMyStory(
  services: Pick<AnswerServices, "db" | "storage" | "config">,
  me: Me,
  promptId: string,
): Promise<DeleteStoryResult> {
  if (!isUuid(promptId)) return "not-found";
  const keys = await inTransaction(services.db, async (tx) => {
    const own = await tx
      .selectFrom("prompts")
      .select("id")
      .where("id", "=", promptId)
      .where("storyteller_id", "in", selfStorytellerIds(tx, me.id))
      .forUpdate()
      .executeTakeFirst();
    const answer = await tx
      .deleteFrom("answers")
      .where("answers.prompt_id", "=", promptId)
      .where(own ? sql<boolean>`true` : isMyAnswer(tx, me))
      .returning(["storage_key", "playable_storage_key"])
      .executeTakeFirst();
    if (own) await tx.deleteFrom("prompts").where("id", "=", own.id).execute();
    else if (!answer) return null;
    // Someone else's question waits for an answer again, so its code works again.
    else await reopenAnswerCode(tx, services.config, promptId);
    return answer ? [answer.storage_key, answer.playable_storage_key] : [];
  });
  if (!keys) return "not-found";
  for (const key of keys) {
    if (!key) continue;
    await services.storage
      .delete(key)
      .catch((error: Error) =>
        log.warn({ module: "my-stories", err: error, key }, "could not remove a deleted story's file"),
      );
  }
  return "deleted";
}
