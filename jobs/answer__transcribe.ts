import type { JobTask } from "~/services/jobs.server";
import { sendErrorReason } from "~/services/send-errors.server";
import {
  createTranscriber,
  PermanentTranscriptionError,
  serviceTakes,
  type Transcriber,
} from "~/services/transcription.server";
import type { JobDeps } from "./task-list";

/**
 * Transcribes one answer whose transcript is still pending, through the configured speech-to-text
 * service (the playable copy when there is one, else the original). Outcomes in
 * `answers.transcript_status`: done (with the text), none (no service configured, or no words
 * heard), failed (refused, or still failing on the last attempt). A transient failure before the
 * last attempt throws, so graphile-worker retries with its backoff. A deleted answer is a no-op.
 */
export const answerTranscribe = (
  deps: Pick<JobDeps, "db" | "config" | "storage">,
  options: { transcriber?: Transcriber | null } = {},
): JobTask<"answer__transcribe"> => {
  const transcriber = options.transcriber === undefined ? createTranscriber(deps.config) : options.transcriber;
  return async (payload, helpers) => {
    const { answerId } = payload;
    const { db, storage } = deps;
    const answer = await db
      .selectFrom("answers")
      .innerJoin("storytellers", "storytellers.id", "answers.storyteller_id")
      .select([
        "answers.storage_key",
        "answers.content_type",
        "answers.playable_storage_key",
        "answers.playable_content_type",
        "answers.transcript_status",
        "storytellers.language",
      ])
      .where("answers.id", "=", answerId)
      .executeTakeFirst();
    if (!answer || answer.transcript_status !== "pending") return;

    // Only the recording this job read gets the result: a re-record in place would have changed the key.
    const record = (status: "done" | "none" | "failed", transcript: string | null = null) =>
      db
        .updateTable("answers")
        .set({ transcript_status: status, transcript })
        .where("id", "=", answerId)
        .where("storage_key", "=", answer.storage_key)
        .where("transcript_status", "=", "pending")
        .execute();

    if (!transcriber) {
      await record("none");
      return;
    }

    try {
      // The playable copy (AAC) is what every service accepts; the original when there is none.
      let stored = answer.playable_storage_key ? await storage.get(answer.playable_storage_key) : null;
      let contentType = answer.playable_content_type ?? answer.content_type;
      if (!stored) {
        // An AMR, 3GP or CAF recording waits for its copy (answer__transcode, queued with this job).
        if (!serviceTakes(answer.content_type))
          throw new Error(`answer ${answerId}: waiting for the playable copy of a ${answer.content_type} recording`);
        stored = await storage.get(answer.storage_key);
        contentType = answer.content_type;
      }
      if (!stored) throw new PermanentTranscriptionError(`no stored recording (${answer.storage_key})`);
      const audio = new Uint8Array(await new Response(stored.body).arrayBuffer());
      const text = await transcriber.transcribe({ audio, contentType, language: answer.language });
      await record(text ? "done" : "none", text);
    } catch (error) {
      const permanent = error instanceof PermanentTranscriptionError;
      const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
      if (!permanent && !lastAttempt) throw error;
      await record("failed");
      helpers.logger.warn(`answer ${answerId}: transcription failed: ${sendErrorReason(error)}`);
      // The last transient failure stays visible in graphile-worker's table; a refusal is final.
      if (!permanent) throw error;
    }
  };
};
