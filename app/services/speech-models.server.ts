import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Config } from "~/config.server";

/**
 * The whisper.cpp models Heirloom offers, each pinned by the SHA-256 of the file at
 * huggingface.co/ggerganov/whisper.cpp (the same values Nix derivations fetch with: decision 035).
 * Only models whose hash could be pinned are offered; `approxMb` is for the page and the log only.
 */
export const SPEECH_MODELS = {
  tiny: {
    file: "ggml-tiny.bin",
    approxMb: 75,
    sha256: "be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21",
  },
  base: {
    file: "ggml-base.bin",
    approxMb: 142,
    sha256: "60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe",
  },
  "base-q5_1": {
    file: "ggml-base-q5_1.bin",
    approxMb: 57,
    sha256: "422f1ae452ade6f30a004d7e5c6a43195e4433bc370bf23fac9cc591f01a8898",
  },
  small: {
    file: "ggml-small.bin",
    approxMb: 466,
    sha256: "1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b",
  },
  "small-q5_1": {
    file: "ggml-small-q5_1.bin",
    approxMb: 181,
    sha256: "ae85e4a935d7a567bd102fe55afc16bb595bdb618e11b2fc7591bc08120411bb",
  },
} as const;

export type SpeechModelName = keyof typeof SPEECH_MODELS;
export const SPEECH_MODEL_NAMES = Object.keys(SPEECH_MODELS) as SpeechModelName[];

/** The default (decision 035): multilingual, the smallest with a fair chance at Hindi, quantised. */
export const DEFAULT_SPEECH_MODEL: SpeechModelName = "small-q5_1";
export const DEFAULT_SPEECH_MODEL_URL = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main";

type ModelConfig = Pick<Config, "DATA_DIR" | "SPEECH_MODEL" | "SPEECH_MODEL_DIR" | "SPEECH_MODEL_URL">;

export const isSpeechModelName = (value: string): value is SpeechModelName => value in SPEECH_MODELS;

/**
 * Where the configured model lives: a named model is a file in SPEECH_MODEL_DIR (default
 * DATA_DIR/models), which an offline admin may fill by hand; anything else is a path to a model file.
 */
export function speechModelLocation(config: ModelConfig) {
  const name = config.SPEECH_MODEL;
  if (!isSpeechModelName(name)) return { name, file: path.resolve(name), pinned: null };
  const dir = path.resolve(config.SPEECH_MODEL_DIR ?? path.join(config.DATA_DIR, "models"));
  const pinned = SPEECH_MODELS[name];
  return {
    name,
    file: path.join(dir, pinned.file),
    pinned: {
      ...pinned,
      url: `${(config.SPEECH_MODEL_URL ?? DEFAULT_SPEECH_MODEL_URL).replace(/\/+$/, "")}/${pinned.file}`,
    },
  };
}

export const speechModelInstalled = (config: ModelConfig) => existsSync(speechModelLocation(config).file);

export class ModelDownloadError extends Error {
  override name = "ModelDownloadError";
}

export type DownloadProgress = (received: number, total: number | null) => void;

async function sha256Of(file: string) {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

const sizeOf = (file: string) =>
  stat(file).then(
    (info) => info.size,
    () => 0,
  );

/**
 * Fetches `url` into `file`, verified against `sha256`. The bytes go to `file.partial` first: a
 * download cut short resumes from there with a Range request (or starts again when the server sends
 * the whole file), and only a file whose SHA-256 matches is renamed into place. A mismatch deletes
 * the partial file and throws.
 */
export async function downloadVerified(
  { url, file, sha256 }: { url: string; file: string; sha256: string },
  options: { onProgress?: DownloadProgress; signal?: AbortSignal } = {},
) {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const have = await sizeOf(partial);
  const response = await fetch(url, {
    headers: have > 0 ? { Range: `bytes=${have}-` } : {},
    redirect: "follow",
    signal: options.signal,
  });
  if (response.status === 416 && have > 0) {
    // The partial file is already whole (or longer than the file): the checksum decides.
    await response.body?.cancel();
  } else if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new ModelDownloadError(`download of ${url} answered ${response.status}`);
  } else {
    const resumed = response.status === 206 && have > 0;
    const length = Number(response.headers.get("content-length")) || null;
    const total = length === null ? null : resumed ? have + length : length;
    let received = resumed ? have : 0;
    let reported = 0;
    const counted = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>).on(
      "data",
      (chunk: Buffer) => {
        received += chunk.length;
        // About every 1% (or 8 MB when the size is unknown), so the log shows progress without flooding.
        if (received - reported >= (total ? total / 100 : 8 << 20)) {
          reported = received;
          options.onProgress?.(received, total);
        }
      },
    );
    await pipeline(counted, createWriteStream(partial, { flags: resumed ? "a" : "w" }));
    options.onProgress?.(received, total);
  }
  const actual = await sha256Of(partial);
  if (actual !== sha256) {
    await rm(partial, { force: true });
    throw new ModelDownloadError(
      `${path.basename(file)} from ${url} has SHA-256 ${actual}, expected ${sha256}: refused`,
    );
  }
  await rename(partial, file);
}

/**
 * Makes sure the configured model is on disk, downloading a named one when it is missing. Returns
 * the file, or throws a ModelDownloadError (a path that does not exist cannot be downloaded).
 */
export async function ensureSpeechModel(
  config: ModelConfig,
  options: { onProgress?: DownloadProgress; signal?: AbortSignal } = {},
) {
  const location = speechModelLocation(config);
  if (existsSync(location.file)) return location.file;
  if (!location.pinned) throw new ModelDownloadError(`no model file at ${location.file} (SPEECH_MODEL)`);
  await downloadVerified({ url: location.pinned.url, file: location.file, sha256: location.pinned.sha256 }, options);
  return location.file;
}
