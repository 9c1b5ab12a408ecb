import { type NotNull, sql } from "kysely";
import { enqueueJobs } from "~/services/jobs.server";
import { type Db, type DbOrTx, inTransaction } from "../../db/client";
import type { TranscriptSegment } from "../../db/schema";

/** What the transcription job needs to know about one answer; null when the answer is gone. */
export function answerToTranscribe(db: DbOrTx, answerId: string) {
  return (
    db
      .selectFrom("answers")
      .innerJoin("storytellers", "storytellers.id", "answers.storyteller_id")
      .select([
        "answers.storage_key",
        "answers.content_type",
        "answers.playable_storage_key",
        "answers.playable_content_type",
        "answers.transcript_status",
        "answers.duration_ms",
        "storytellers.language",
      ])
      .where("answers.id", "=", answerId)
      // A written answer's words are hers: there is nothing to listen to.
      .where("answers.storage_key", "is not", null)
      .$narrowType<{ storage_key: NotNull; content_type: NotNull; duration_ms: NotNull }>()
      .executeTakeFirst()
  );
}

/** Whether the job's recording is still the answer's and still wants words (else: stop the engine). */
export async function stillToTranscribe(
  db: DbOrTx,
  { answerId, storageKey }: { answerId: string; storageKey: string },
) {
  const row = await db
    .selectFrom("answers")
    .select("answers.id")
    .where("answers.id", "=", answerId)
    .where("storage_key", "=", storageKey)
    .where("transcript_status", "in", ["pending", "waiting"])
    .executeTakeFirst();
  return row !== undefined;
}

export type MachineTranscript = {
  answerId: string;
  /** The recording the words came from: a re-recorded answer (another key) is left alone. */
  storageKey: string;
  text: string | null;
  /** Timed segments whose texts, joined with " ", are `text`; null when the service gave none. */
  segments: TranscriptSegment[] | null;
};

/**
 * Stores what the speech engine heard. machine_transcript/machine_segments always take it; the
 * family-visible transcript/transcript_segments only when nobody has corrected them
 * (transcript_edited_at is null): a correction is never overwritten. Status 'done', or 'none' when
 * no words were heard and there is no correction. Only while the answer still holds `storageKey`
 * and waits for words ('pending' or 'waiting'). Returns whether a row changed.
 */
export async function recordMachineTranscript(db: DbOrTx, { answerId, storageKey, text, segments }: MachineTranscript) {
  const words = text?.trim() || null;
  const timed = words && segments?.length ? JSON.stringify(segments) : null;
  const result = await db
    .updateTable("answers")
    .set({
      machine_transcript: words,
      machine_segments: timed,
      transcript: sql`CASE WHEN transcript_edited_at IS NULL THEN ${words}::text ELSE transcript END`,
      transcript_segments: sql`CASE WHEN transcript_edited_at IS NULL THEN ${timed}::jsonb ELSE transcript_segments END`,
      transcript_status: sql`CASE WHEN transcript_edited_at IS NOT NULL OR ${words !== null} THEN 'done' ELSE 'none' END`,
    })
    .where("id", "=", answerId)
    .where("storage_key", "=", storageKey)
    .where("transcript_status", "in", ["pending", "waiting"])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The engine or model is not installed yet: the answer waits ("Words coming") instead of failing. */
export async function markTranscriptWaiting(
  db: DbOrTx,
  { answerId, storageKey }: { answerId: string; storageKey: string },
) {
  await db
    .updateTable("answers")
    .set({ transcript_status: "waiting" })
    .where("id", "=", answerId)
    .where("storage_key", "=", storageKey)
    .where("transcript_status", "=", "pending")
    .execute();
}

/** Transcription failed for good (a refusal, unreadable audio, or the last attempt). */
export async function markTranscriptFailed(
  db: DbOrTx,
  { answerId, storageKey }: { answerId: string; storageKey: string },
) {
  await db
    .updateTable("answers")
    .set({ transcript_status: "failed" })
    .where("id", "=", answerId)
    .where("storage_key", "=", storageKey)
    .where("transcript_status", "in", ["pending", "waiting"])
    .execute();
}

/** queueWaitingTranscriptions in a transaction of its own (the speech worker's periodic check). */
export const requeueWaitingTranscriptions = (db: Db) => inTransaction(db, (tx) => queueWaitingTranscriptions(tx));

/**
 * Puts every waiting answer back in line, oldest first (the engine and model are here now): status
 * 'pending' and one transcription job each. Call it inside a transaction (the status and the jobs
 * together). Returns how many were queued.
 */
export async function queueWaitingTranscriptions(db: DbOrTx, limit = 500) {
  const queued = await db
    .with("oldest", (qb) =>
      qb
        .selectFrom("answers")
        .select(["id", "created_at"])
        .where("transcript_status", "=", "waiting")
        .orderBy("created_at")
        .orderBy("id")
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .updateTable("answers")
    .from("oldest")
    .set({ transcript_status: "pending" })
    .whereRef("answers.id", "=", "oldest.id")
    .returning(["answers.id", "oldest.created_at"])
    .execute();
  // Each job's run_at is its answer's created_at (already due): graphile-worker takes the earliest
  // run_at first, so the oldest answer goes first, ahead of answers recorded since.
  await enqueueJobs(
    db,
    "answer__transcribe",
    queued.map(({ id, created_at }) => ({ payload: { answerId: id }, options: { runAt: created_at } })),
  );
  return queued.length;
}
