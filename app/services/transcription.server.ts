import type { Config } from "~/config.server";
import type { Language } from "../../db/schema";
import { isPermanentStatus } from "./send-errors.server";

export type TranscriptionRequest = {
  /** The whole recording (answers are at most 25 MB, the limit of OpenAI's endpoint too). */
  audio: Uint8Array;
  /** The stored content type, e.g. "audio/webm;codecs=opus"; also picks the file name's extension. */
  contentType: string;
  /** The Storyteller's language, sent as the `language` hint. */
  language: Language;
};

export interface Transcriber {
  /** The trimmed transcript, or null when the service heard no words. */
  transcribe(request: TranscriptionRequest): Promise<string | null>;
}

/**
 * The service refused the request for a reason retrying will not fix (a 4xx other than 408/429,
 * or an answer that is not a transcription). Any other error is transient: the job retries.
 */
export class PermanentTranscriptionError extends Error {
  override name = "PermanentTranscriptionError";
}

/** How long one request may take: a five-minute recording usually takes well under a minute. */
const TRANSCRIBE_TIMEOUT_MS = 180_000;

const EXTENSIONS: Record<string, string> = {
  "audio/webm": "webm",
  "video/webm": "webm",
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "video/mp4": "mp4",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/flac": "flac",
};

/**
 * Whether the service takes a recording of this type as it is (OpenAI's list: FLAC, M4A, MP3, MP4,
 * Ogg, WAV, WebM). AMR, 3GP, CAF and ADTS AAC answers are sent as their playable (AAC) copy.
 */
export const serviceTakes = (contentType: string) => baseContentType(contentType) in EXTENSIONS;

/** The base MIME type without parameters: "audio/webm;codecs=opus" → "audio/webm". */
export const baseContentType = (contentType: string) => contentType.split(";")[0].trim().toLowerCase();

/** OpenAI's endpoint decides the format from the file name, so the name carries the right extension. */
export const audioFilename = (contentType: string) => `answer.${EXTENSIONS[baseContentType(contentType)] ?? "webm"}`;

/**
 * A client for an OpenAI-compatible speech-to-text API (`POST {TRANSCRIBE_URL}/audio/transcriptions`,
 * multipart: file, model, language, response_format=json). Null when TRANSCRIBE_URL is not set.
 */
export function createTranscriber(
  config: Pick<Config, "TRANSCRIBE_URL" | "TRANSCRIBE_API_KEY" | "TRANSCRIBE_MODEL">,
  options: { timeoutMs?: number } = {},
): Transcriber | null {
  if (!config.TRANSCRIBE_URL) return null;
  const endpoint = `${config.TRANSCRIBE_URL.replace(/\/+$/, "")}/audio/transcriptions`;
  const timeoutMs = options.timeoutMs ?? TRANSCRIBE_TIMEOUT_MS;
  return {
    async transcribe({ audio, contentType, language }) {
      const form = new FormData();
      form.append(
        "file",
        new Blob([audio as Uint8Array<ArrayBuffer>], { type: baseContentType(contentType) }),
        audioFilename(contentType),
      );
      form.append("model", config.TRANSCRIBE_MODEL);
      form.append("language", language);
      form.append("response_format", "json");
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { Authorization: `Bearer ${config.TRANSCRIBE_API_KEY ?? ""}`, Accept: "application/json" },
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await response.text();
      if (!response.ok) {
        const reason = `transcription service answered ${response.status}: ${providerMessage(body)}`;
        throw isPermanentStatus(response.status) ? new PermanentTranscriptionError(reason) : new Error(reason);
      }
      let text: unknown;
      try {
        text = (JSON.parse(body) as { text?: unknown }).text;
      } catch {
        text = undefined;
      }
      if (typeof text !== "string") {
        throw new PermanentTranscriptionError(
          `transcription service answered ${response.status} without a JSON "text": ${providerMessage(body)}`,
        );
      }
      return text.trim() || null;
    },
  };
}

/** The provider's own error words (OpenAI: {"error":{"message":...}}), short and on one line. */
function providerMessage(body: string): string {
  let message = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof candidate === "string") message = candidate;
  } catch {
    // not JSON: the raw body
  }
  return message.replace(/\s+/g, " ").trim().slice(0, 300) || "(empty body)";
}
