import { createHash } from "node:crypto";
import { sql } from "kysely";
import { isUuid } from "~/utils/ids";
import { formatDay } from "~/utils/intl-formats";
import { noControlCharacters } from "~/utils/validation";
import {
  cleanSegments,
  MAX_SEGMENT_CHARS,
  MAX_TRANSCRIPT_CHARS,
  oneLine,
  type Segment,
  type WordsStatus,
  type WordsView,
} from "~/utils/words";
import type { DbOrTx } from "../../db/client";
import { answerVisibleTo, sharedAnswer, visibleStorytellerIds } from "./access.server";

/**
 * The family corrects an answer's words (decision 037). Who may: its Storyteller's owner or a
 * collaborator (visibleStorytellerIds), for an answer they may hear (the media route's rule: never a
 * private one, except the user's own stories as their own Storyteller). The machine's words stay in
 * machine_* as they came; `transcript_edited_over` keeps the machine words a correction was made
 * over, so newer ones arriving later wait beside the correction instead of replacing it.
 */

export type AnswerWords = {
  id: string;
  storytellerId: string;
  question: string;
  storytellerName: string;
  status: WordsStatus;
  transcript: string | null;
  segments: Segment[];
  /** False for a written answer (a reply by email): words only, nothing to listen to. */
  hasRecording: boolean;
  /** Which words the form was opened on (a digest), so a save crossing another's is caught. */
  version: string;
  editedAt: Date | null;
  editorName: string | null;
  /** The machine heard the words again after the family corrected them: offered, never applied silently. */
  heardAgain: { transcript: string; segments: Segment[] } | null;
};

/** The answers of `userId`'s Storytellers (owner or collaborator) they may hear. */
function editableAnswers(db: DbOrTx, userId: string) {
  return db
    .selectFrom("answers as e")
    .select("e.id")
    .where("e.storyteller_id", "in", visibleStorytellerIds(db, userId))
    .where(answerVisibleTo(db, "e", { kind: "listener", userId }));
}

/** An answer's words for its editing page, or null when the user may not correct them (404). */
export async function answerWordsForEditor(db: DbOrTx, userId: string, answerId: string): Promise<AnswerWords | null> {
  if (!isUuid(answerId)) return null;
  const row = await db
    .selectFrom("answers as a")
    .innerJoin("prompts as p", "p.id", "a.prompt_id")
    .innerJoin("storytellers as s", "s.id", "a.storyteller_id")
    .leftJoin("users as editor", "editor.id", "a.transcript_edited_by")
    .select([
      "a.id",
      "a.storyteller_id",
      "p.text as question",
      "s.first_name",
      "a.transcript_status",
      "a.transcript",
      "a.transcript_segments",
      "a.machine_transcript",
      "a.machine_segments",
      "a.transcript_edited_at",
      "a.transcript_edited_over",
      "a.storage_key",
      "editor.first_name as editor_name",
    ])
    .where("a.id", "=", answerId)
    .where("a.id", "in", editableAnswers(db, userId))
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    storytellerId: row.storyteller_id,
    question: row.question,
    storytellerName: row.first_name!,
    status: row.transcript_status,
    transcript: row.transcript,
    segments: cleanSegments(row.transcript_segments),
    hasRecording: row.storage_key !== null,
    version: wordsVersion(row.transcript),
    editedAt: row.transcript_edited_at,
    editorName: row.editor_name,
    heardAgain: heardAgain(row),
  };
}

// md5 because PostgreSQL has it built in; it tells versions apart, it guards no secret.
const wordsVersion = (transcript: string | null) =>
  createHash("md5")
    .update(transcript ?? "")
    .digest("hex");

/** Newer machine words beside a correction: the machine's transcript is not the one the family corrected. */
export function heardAgain(row: {
  transcript_edited_at: Date | null;
  transcript_edited_over: string | null;
  machine_transcript: string | null;
  machine_segments: unknown;
  transcript: string | null;
}): AnswerWords["heardAgain"] {
  const machine = row.machine_transcript?.trim();
  if (!row.transcript_edited_at || !machine) return null;
  if (machine === row.transcript_edited_over?.trim() || machine === row.transcript?.trim()) return null;
  return { transcript: machine, segments: cleanSegments(row.machine_segments) };
}

export type WordsProblem =
  "invalidCharacters" | "tooLong" | "segmentTooLong" | "wrongSegmentCount" | "empty" | "changed";
export type CorrectWordsResult =
  { ok: true } | { ok: false; problem: "not-found" } | { ok: false; problem: WordsProblem };

/**
 * Saves the family's words: one text per segment when the answer has segments (their timings kept,
 * so the words still follow the voice), else the whole text. `version` names the words the form was
 * opened on: when someone else saved in between, nothing is overwritten ("changed").
 */
export async function correctWords(
  db: DbOrTx,
  userId: string,
  answerId: string,
  input: { segments?: string[]; text?: string; version: string },
): Promise<CorrectWordsResult> {
  const current = await answerWordsForEditor(db, userId, answerId);
  if (!current) return { ok: false, problem: "not-found" };
  if (current.version !== input.version) return { ok: false, problem: "changed" };

  if (![input.text ?? "", ...(input.segments ?? [])].every(noControlCharacters))
    return { ok: false, problem: "invalidCharacters" };
  let transcript: string;
  let segments: Segment[] | null = null;
  if (current.segments.length) {
    const texts = input.segments ?? [];
    if (texts.length !== current.segments.length) return { ok: false, problem: "wrongSegmentCount" };
    if (texts.some((text) => text.length > MAX_SEGMENT_CHARS)) return { ok: false, problem: "segmentTooLong" };
    segments = current.segments.map((segment, i) => ({ ...segment, text: oneLine(texts[i]) }));
    transcript = segments
      .map((segment) => segment.text)
      .filter(Boolean)
      .join(" ");
  } else {
    if (input.segments?.length) return { ok: false, problem: "wrongSegmentCount" };
    transcript = (input.text ?? "").replace(/\r\n?/g, "\n").trim();
  }
  if (transcript.length > MAX_TRANSCRIPT_CHARS) return { ok: false, problem: "tooLong" };
  if (!transcript) return { ok: false, problem: "empty" };
  if (transcript === current.transcript) return { ok: true };

  const updated = await db
    .updateTable("answers")
    .set({
      transcript,
      transcript_segments: segments ? JSON.stringify(segments) : null,
      transcript_status: "done",
      transcript_edited_by: userId,
      transcript_edited_at: sql<Date>`now()`,
      transcript_edited_over: sql<string | null>`machine_transcript`,
    })
    .where("id", "=", current.id)
    // The row as it was read: a save that crossed another's is refused, not merged.
    .where(sql<boolean>`md5(coalesce(transcript, '')) = ${input.version}`)
    .executeTakeFirst();
  return updated.numUpdatedRows ? { ok: true } : { ok: false, problem: "changed" };
}

/**
 * What the family chose about words heard again: "use" puts the machine's newer words in place of
 * the correction (it is theirs to correct again), "keep" keeps the correction and stops asking.
 */
export async function settleHeardAgain(
  db: DbOrTx,
  userId: string,
  answerId: string,
  choice: "use" | "keep",
): Promise<boolean> {
  const current = await answerWordsForEditor(db, userId, answerId);
  if (!current?.heardAgain) return false;
  const machine = current.heardAgain.transcript;
  const query = db.updateTable("answers").where("id", "=", current.id).where("machine_transcript", "=", machine);
  const updated =
    choice === "use"
      ? await query
          .set({
            transcript: sql<string>`machine_transcript`,
            transcript_segments: sql`machine_segments`,
            transcript_status: "done",
            transcript_edited_by: null,
            transcript_edited_at: null,
            transcript_edited_over: null,
          })
          .executeTakeFirst()
      : await query.set({ transcript_edited_over: machine }).executeTakeFirst();
  return Boolean(updated.numUpdatedRows);
}

/**
 * What a page showing an answer's words reads beside `a.transcript` and `a.transcript_status`
 * (answers aliased `a`, or as wordsColumnsOf names them): the timings, who corrected them and when, and whether newer machine words wait.
 */
export function wordsColumnsOf(alias: string, { maskPrivate = false }: { maskPrivate?: boolean } = {}) {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return [
    // maskPrivate: a private answer's words stay with the Storyteller, timings included.
    maskPrivate
      ? sql<unknown>`case when ${sharedAnswer(alias)} then ${col("transcript_segments")} end`.as("transcript_segments")
      : sql<unknown>`${col("transcript_segments")}`.as("transcript_segments"),
    sql<Date | null>`${col("transcript_edited_at")}`.as("transcript_edited_at"),
    sql<string | null>`(select u.first_name from users u where u.id = ${col("transcript_edited_by")})`.as(
      "transcript_editor",
    ),
    sql<boolean>`(${col("transcript_edited_at")} is not null and nullif(trim(${col("machine_transcript")}), '') is not null
      and ${col("machine_transcript")} is distinct from ${col("transcript_edited_over")}
      and ${col("machine_transcript")} is distinct from ${col("transcript")})`.as("heard_again"),
    // What she wrote beside a recording (a reply by email); a written answer's words are its transcript.
    (maskPrivate
      ? sql<
          string | null
        >`case when ${col("is_private")} or ${col("storage_key")} is null then null else ${col("written_text")} end`
      : sql<string | null>`case when ${col("storage_key")} is null then null else ${col("written_text")} end`
    ).as("written_beside"),
  ] as const;
}

export const wordsColumns = wordsColumnsOf("a");

export type WordsRow = {
  transcript: string | null;
  transcript_status: AnswerWords["status"];
  transcript_segments: unknown;
  transcript_edited_at: Date | null;
  transcript_editor: string | null;
  heard_again: boolean;
  written_beside: string | null;
};

/**
 * The words as a page shows them (app/components/answer-words.tsx), the correction's date written in
 * the page's language and the reader's time zone.
 */
export function wordsView(row: WordsRow, locale: string, timeZone: string): WordsView {
  return {
    status: row.transcript_status,
    transcript: row.transcript,
    segments: cleanSegments(row.transcript_segments),
    corrected: row.transcript_edited_at
      ? { by: row.transcript_editor, on: formatDay(locale, row.transcript_edited_at, timeZone, "dayMonth") }
      : null,
    heardAgain: row.heard_again,
    written: row.written_beside,
  };
}
