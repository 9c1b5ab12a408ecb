import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import type { JobHelpers } from "graphile-worker";
import {
  answerToTranscribe,
  markTranscriptFailed,
  markTranscriptWaiting,
  recordMachineTranscript,
  stillToTranscribe,
} from "~/models/transcript.server";
import type { JobTask } from "~/services/jobs.server";
import { sendErrorReason } from "~/services/send-errors.server";
import { type EngineResult, UnreadableAudioError } from "~/services/speech-engine.server";
import { createLocalSpeech, type LocalSpeech } from "~/services/speech.server";
import {
  createTranscriber,
  PermanentTranscriptionError,
  serviceTakes,
  type Transcriber,
} from "~/services/transcription.server";
import type { JobDeps } from "./task-list";

/** How often a running transcription checks that its answer still wants it (deleted, re-recorded). */
const STILL_WANTED_CHECK_MS = 5_000;

/**
 * Transcribes one answer whose transcript is pending: on this machine by default (whisper.cpp in a
 * child process, decision 036), through the cloud service when TRANSCRIBE_URL is set. The result is
 * stored by recordMachineTranscript (a family's correction is never overwritten). No engine or model
 * yet → 'waiting' (queued again, oldest first, once there is). A transient failure before the last
 * attempt throws, so graphile-worker retries with its backoff. A deleted answer is a no-op.
 */
export const answerTranscribe = (
  deps: Pick<JobDeps, "db" | "config" | "storage">,
  options: { transcriber?: Transcriber | null; speech?: LocalSpeech } = {},
): JobTask<"answer__transcribe"> => {
  const transcriber = options.transcriber === undefined ? createTranscriber(deps.config) : options.transcriber;
  const speech = options.speech ?? createLocalSpeech(deps.config);
  return async (payload, helpers) => {
    const { answerId } = payload;
    const { db, storage } = deps;
    const answer = await answerToTranscribe(db, answerId);
    if (!answer || answer.transcript_status !== "pending") return;
    const which = { answerId, storageKey: answer.storage_key };

    // The playable copy (AAC) is what every service accepts; the original when there is none.
    const openRecording = async () => {
      const copy = answer.playable_storage_key ? await storage.get(answer.playable_storage_key) : null;
      if (copy) return { stored: copy, contentType: answer.playable_content_type ?? answer.content_type };
      // An AMR, 3GP or CAF recording waits for its copy (answer__transcode, queued with this job).
      if (transcriber && !serviceTakes(answer.content_type))
        throw new Error(`answer ${answerId}: waiting for the playable copy of a ${answer.content_type} recording`);
      const original = await storage.get(answer.storage_key);
      if (!original) throw new PermanentTranscriptionError(`no stored recording (${answer.storage_key})`);
      return { stored: original, contentType: answer.content_type };
    };

    try {
      if (transcriber) {
        const { stored, contentType } = await openRecording();
        const audio = new Uint8Array(await new Response(stored.body).arrayBuffer());
        const text = await transcriber.transcribe({ audio, contentType, language: answer.language });
        await recordMachineTranscript(db, { ...which, text, segments: null });
        return;
      }

      const ready = await speech.prepare({
        allowDownload: deps.config.SPEECH_MODEL_DOWNLOAD,
        log: (message) => helpers.logger.info(message),
        signal: helpers.abortSignal,
      });
      if (!ready.ok) {
        await markTranscriptWaiting(db, which);
        helpers.logger.info(`answer ${answerId}: words wait for the speech ${ready.missing} (${ready.detail})`);
        return;
      }
      const result = await transcribeHere(deps, helpers, { ...which, answer, openRecording, speech });
      if (result) await recordMachineTranscript(db, { ...which, ...result });
    } catch (error) {
      // Stopped by a shutdown: another process takes the job again, whatever attempt this was.
      if (helpers.abortSignal?.aborted) throw error;
      // A run past its time limit (a multiple of the audio's length) would only repeat it.
      const timedOut = Boolean((error as { timedOut?: boolean } | null)?.timedOut);
      const permanent =
        error instanceof PermanentTranscriptionError || error instanceof UnreadableAudioError || timedOut;
      const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
      if (!permanent && !lastAttempt) throw error;
      await markTranscriptFailed(db, which);
      helpers.logger.warn(`answer ${answerId}: transcription failed: ${sendErrorReason(error)}`);
      // The last transient failure stays visible in graphile-worker's table; a refusal is final.
      if (!permanent) throw error;
    }
  };
};

type Recording = { stored: { body: ReadableStream<Uint8Array> }; contentType: string };

/**
 * Runs the local engine on the recording, copied to a temporary file. The engine is stopped when
 * graphile-worker aborts (shutdown) or the answer stops wanting words (deleted or re-recorded):
 * then null, and nothing is stored.
 */
async function transcribeHere(
  deps: Pick<JobDeps, "db">,
  helpers: JobHelpers,
  job: {
    answerId: string;
    storageKey: string;
    answer: { duration_ms: number; language: "en" | "hi" };
    openRecording: () => Promise<Recording>;
    speech: LocalSpeech;
  },
): Promise<EngineResult | null> {
  const cancel = new AbortController();
  const signal = AbortSignal.any([cancel.signal, helpers.abortSignal]);
  const watch = setInterval(() => {
    stillToTranscribe(deps.db, job).then(
      (wanted) => wanted || cancel.abort(),
      () => undefined, // a database blip is not a reason to stop
    );
  }, STILL_WANTED_CHECK_MS);
  const work = await mkdtemp(path.join(os.tmpdir(), "heirloom-transcribe-"));
  try {
    const { stored } = await job.openRecording();
    const input = path.join(work, "recording");
    await pipeline(Readable.fromWeb(stored.body as NodeWebReadableStream<Uint8Array>), createWriteStream(input));
    const started = Date.now();
    try {
      const result = await job.speech.transcribe({
        input,
        language: job.answer.language,
        durationMs: job.answer.duration_ms,
        signal,
      });
      helpers.logger.info(
        `answer ${job.answerId}: ${result.segments.length} segments in ${Math.round((Date.now() - started) / 1000)} s`,
      );
      return result;
    } catch (error) {
      if (cancel.signal.aborted) {
        helpers.logger.info(`answer ${job.answerId}: transcription stopped (answer deleted or re-recorded)`);
        return null;
      }
      throw error;
    }
  } finally {
    clearInterval(watch);
    await rm(work, { recursive: true, force: true });
  }
}
