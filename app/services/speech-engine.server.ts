import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Config } from "~/config.server";
import type { TranscriptSegment } from "../../db/schema";
import { AUDIO_DECODERS, ffmpegBinary } from "./audio.server";

/** The whisper.cpp release `npm run speech:install` builds (the source nodejs-whisper@0.3.1 vendors). */
export const WHISPER_VERSION = "1.9.1";

/** Where `npm run speech:install` puts a build: one folder per version and flavour (decision 036). */
export const engineBuildDir = (flavour: "native" | "portable", root = process.cwd()) =>
  path.join(root, ".cache", "speech", `whisper-${WHISPER_VERSION}-${flavour}`);

/**
 * The whisper-cli this process runs: SPEECH_ENGINE when set, else the host-tuned build, else the
 * portable one (the Docker image's). Null when there is none.
 */
export function speechEnginePath(config: Pick<Config, "SPEECH_ENGINE">): string | null {
  if (config.SPEECH_ENGINE) return existsSync(config.SPEECH_ENGINE) ? path.resolve(config.SPEECH_ENGINE) : null;
  for (const flavour of ["native", "portable"] as const) {
    const binary = path.join(engineBuildDir(flavour), "bin", "whisper-cli");
    if (existsSync(binary)) return binary;
  }
  return null;
}

export type EngineResult = { text: string; segments: TranscriptSegment[] };

export class SpeechEngineError extends Error {
  override name = "SpeechEngineError";
}

/** The audio could not be decoded: retrying will not help. */
export class UnreadableAudioError extends SpeechEngineError {
  override name = "UnreadableAudioError";
}

export type EngineRun = {
  engine: string;
  model: string;
  /** A recording ffmpeg reads (the stored original or its playable copy). */
  input: string;
  language: "en" | "hi";
  threads: number;
  /** The audio's length: the time limit is a multiple of it. */
  durationMs: number;
  signal?: AbortSignal;
  /** Extra arguments for whisper-cli (the benchmark's decoder limits). */
  extraArgs?: string[];
  /** Called with the child's pid once it runs (the benchmark samples its memory). */
  onSpawn?: (pid: number) => void;
  /** Overrides engineTimeLimitMs(durationMs) (tests). */
  timeLimitMs?: number;
};

/** The engine may take this many times the audio's length (plus loading) before it is killed. */
export const TIME_LIMIT_FACTOR = 4;
const TIME_LIMIT_FLOOR_MS = 120_000;
export const engineTimeLimitMs = (durationMs: number) => TIME_LIMIT_FLOOR_MS + TIME_LIMIT_FACTOR * durationMs;

/**
 * Transcribes one recording in child processes: ffmpeg makes 16 kHz mono WAV, then whisper-cli
 * (at nice 19, `threads` threads) writes JSON with segment timings. A crash, an abort of `signal`
 * or the time limit ends the children, never this process. Runs in a temporary folder it removes.
 */
export async function runSpeechEngine(run: EngineRun): Promise<EngineResult> {
  const work = await mkdtemp(path.join(os.tmpdir(), "heirloom-speech-"));
  try {
    const wav = path.join(work, "audio.wav");
    const deadline = Date.now() + (run.timeLimitMs ?? engineTimeLimitMs(run.durationMs));
    await runChild(
      ffmpegBinary(),
      [
        ...["-hide_banner", "-nostdin", "-loglevel", "error", "-y"],
        ...["-protocol_whitelist", "file", "-codec_whitelist", AUDIO_DECODERS.join(",")],
        ...["-i", `file:${path.resolve(run.input)}`],
        ...["-map", "0:a:0", "-vn", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", "-f", "wav", wav],
      ],
      { signal: run.signal, deadline, what: "ffmpeg" },
    ).catch((error: unknown) => {
      // Only ffmpeg's own refusal (an exit code) says the recording is unreadable; a binary that
      // could not start, an abort or the time limit is not the recording's fault.
      if (error instanceof SpeechEngineError && (error as { exitCode?: number | null }).exitCode)
        throw new UnreadableAudioError(error.message);
      throw error;
    });
    const out = path.join(work, "out");
    await runChild(
      run.engine,
      [
        ...["-m", run.model, "-f", wav, "-l", run.language, "-t", String(Math.max(1, run.threads))],
        // Greedy decoding (decision 035); JSON with offsets; no console text.
        ...["-bs", "1", "-oj", "-of", out, "-np"],
        ...(run.extraArgs ?? []),
      ],
      { signal: run.signal, deadline, what: "whisper-cli", nice: true, onSpawn: run.onSpawn },
    );
    return parseWhisperJson(await readFile(`${out}.json`));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

type WhisperJson = { transcription?: { offsets?: { from?: number; to?: number }; text?: string }[] };

/**
 * whisper-cli's JSON escapes only quotes and backslashes, so a control character in a segment
 * would break JSON.parse: those become spaces first. Times are milliseconds in `offsets`.
 */
export function parseWhisperJson(raw: Uint8Array): EngineResult {
  // eslint-disable-next-line no-control-regex
  const cleaned = new TextDecoder("utf-8").decode(raw).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, " ");
  let parsed: WhisperJson;
  try {
    parsed = JSON.parse(cleaned.replace(/[\r\n\t]+/g, " ")) as WhisperJson;
  } catch (error) {
    throw new SpeechEngineError(`whisper-cli wrote JSON that does not parse: ${(error as Error).message}`);
  }
  const segments: TranscriptSegment[] = [];
  for (const item of parsed.transcription ?? []) {
    const text = (item.text ?? "").replace(/\s+/g, " ").trim();
    if (!text) continue;
    segments.push({ start: (item.offsets?.from ?? 0) / 1000, end: (item.offsets?.to ?? 0) / 1000, text });
  }
  return { text: segments.map((segment) => segment.text).join(" "), segments };
}

type ChildOptions = {
  signal?: AbortSignal;
  deadline: number;
  what: string;
  nice?: boolean;
  onSpawn?: (pid: number) => void;
};

/** Runs a binary without a shell; SIGKILLs it on abort or at the deadline; rejects with stderr's tail. */
function runChild(binary: string, args: string[], options: ChildOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new SpeechEngineError(`${options.what} not started: aborted`));
    const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let timedOut = false;
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    const kill = () => child.kill("SIGKILL");
    const timer = setTimeout(
      () => {
        timedOut = true;
        kill();
      },
      Math.max(0, options.deadline - Date.now()),
    );
    options.signal?.addEventListener("abort", kill, { once: true });
    child.once("spawn", () => {
      // Lowest priority: the web requests on the same cores come first.
      if (options.nice && child.pid) {
        try {
          os.setPriority(child.pid, 19);
        } catch {
          // not permitted here (e.g. an unusual container): it still runs, at normal priority
        }
      }
      if (child.pid) options.onSpawn?.(child.pid);
    });
    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", kill);
    };
    child.once("error", (error) => {
      finish();
      reject(new SpeechEngineError(`${options.what} could not start: ${error.message}`));
    });
    child.once("close", (code, signal) => {
      finish();
      if (code === 0 && !timedOut) return resolve();
      const how = options.signal?.aborted
        ? "was stopped (job cancelled or worker stopping)"
        : timedOut
          ? "ran past its time limit and was killed"
          : signal
            ? `was killed by ${signal}`
            : `exited with code ${code}`;
      const tail = stderr.trim().split("\n").slice(-5).join("\n");
      const exitCode = options.signal?.aborted || timedOut ? null : code;
      reject(
        Object.assign(new SpeechEngineError(`${options.what} ${how}${tail ? `: ${tail}` : ""}`), {
          timedOut,
          exitCode,
        }),
      );
    });
  });
}
