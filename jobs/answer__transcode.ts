import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { answerRecording, currentPlayableKey, setPlayableCopy } from "~/models/playable-copy.server";
import { servedAsRecorded } from "~/services/audio-check.server";
import { ffmpegAvailable, transcodeToM4a } from "~/services/audio.server";
import type { JobTask } from "~/services/jobs.server";
import { storageKeys } from "~/services/storage-keys";
import type { JobDeps } from "./task-list";

/** Where an answer's playable copy is stored. */
export const PLAYABLE_CONTENT_TYPE = "audio/mp4";

let reportedMissingFfmpeg = false;

/**
 * Makes an AAC/M4A copy of an answer that not every browser plays as recorded (WebM and Ogg Opus,
 * AMR, 3GP, CAF, ADTS AAC, ALAC, fragmented MP4, WAV, FLAC: all but MP3 and indexed AAC-in-MP4, see
 * `servedAsRecorded`), so it plays everywhere (iOS Safari included) and downloads in that format,
 * without the recording's metadata (location, device, title); the original is kept as recorded.
 * Without ffmpeg it does nothing (said once in the log) and the original is served. Idempotent: an
 * answer that has a playable copy is left alone. Transcription is its own job.
 */
export const answerTranscode =
  (deps: Pick<JobDeps, "db" | "storage">): JobTask<"answer__transcode"> =>
  async (payload, helpers) => {
    const { answerId } = payload;
    const { db, storage } = deps;
    const answer = await answerRecording(db, answerId);
    if (!answer || answer.playable_storage_key) return;
    if (!(await ffmpegAvailable())) {
      if (!reportedMissingFfmpeg) {
        reportedMissingFfmpeg = true;
        helpers.logger.warn(
          "ffmpeg is not installed: answers are served as recorded (iOS Safari may not play WebM/Ogg ones)",
        );
      }
      return;
    }

    const original = await storage.get(answer.storage_key);
    if (!original) {
      helpers.logger.warn(
        `answer ${answerId}: the original recording ${answer.storage_key} is missing; nothing to transcode`,
      );
      return;
    }

    const directory = await mkdtemp(path.join(os.tmpdir(), "heirloom-transcode-"));
    try {
      const input = path.join(directory, "original");
      const output = path.join(directory, "playable.m4a");
      await pipeline(Readable.fromWeb(original.body as NodeWebReadableStream<Uint8Array>), createWriteStream(input));
      if (await servedAsRecorded(input)) return;
      await transcodeToM4a(input, output);

      const key = storageKeys.answerPlayable(answerId);
      await storage.putStream(key, createReadStream(output), PLAYABLE_CONTENT_TYPE);
      const copy = { key, contentType: PLAYABLE_CONTENT_TYPE };
      if (!(await setPlayableCopy(db, { id: answerId, storageKey: answer.storage_key }, copy))) {
        // Deleted (or re-recorded) while we worked: drop the copy unless the row now points at it.
        if ((await currentPlayableKey(db, answerId)) !== key) await storage.delete(key);
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  };
