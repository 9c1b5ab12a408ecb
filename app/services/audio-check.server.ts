import { stat } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";
import { audioDurationMs } from "./audio-duration.server";

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const MAX_DURATION_MS = 5 * 60_000;
/** Recorders stop a little after 5:00 (the last chunk, the stop click); this much over is fine. */
const DURATION_TOLERANCE_MS = 5_000;

// What the bytes say (file-type's answer) → how we store and serve it.
const AUDIO_FORMATS: Record<string, { contentType: string; extension: string }> = {
  webm: { contentType: "audio/webm", extension: "webm" },
  ogg: { contentType: "audio/ogg", extension: "ogg" },
  oga: { contentType: "audio/ogg", extension: "ogg" },
  opus: { contentType: "audio/ogg", extension: "ogg" },
  m4a: { contentType: "audio/mp4", extension: "m4a" },
  mp4: { contentType: "audio/mp4", extension: "m4a" },
  mp3: { contentType: "audio/mpeg", extension: "mp3" },
  wav: { contentType: "audio/wav", extension: "wav" },
};

export type AudioProblem = "empty" | "tooLarge" | "notAudio" | "tooLong" | "unreadable";
export type AudioCheck =
  | { ok: true; contentType: string; extension: string; byteSize: number; durationMs: number }
  | { ok: false; problem: AudioProblem };

/** The server's own look at an uploaded file: size, type from the bytes (never the name), duration. */
export async function checkAudioFile(file: string): Promise<AudioCheck> {
  const { size } = await stat(file);
  if (size === 0) return { ok: false, problem: "empty" };
  if (size > MAX_UPLOAD_BYTES) return { ok: false, problem: "tooLarge" };
  const detected = await fileTypeFromFile(file);
  const format = detected ? AUDIO_FORMATS[detected.ext] : undefined;
  if (!format) return { ok: false, problem: "notAudio" };
  const durationMs = await audioDurationMs(file, format.contentType);
  if (durationMs === null) return { ok: false, problem: "unreadable" };
  if (durationMs > MAX_DURATION_MS + DURATION_TOLERANCE_MS) return { ok: false, problem: "tooLong" };
  return { ok: true, ...format, byteSize: size, durationMs };
}
