import { spawn } from "node:child_process";
import path from "node:path";

/**
 * ffmpeg and ffprobe, when installed (the Docker image installs them). `FFMPEG_PATH` names the
 * ffmpeg binary (default: `ffmpeg` on the PATH); ffprobe is looked for next to it (`FFPROBE_PATH`
 * overrides). Without ffmpeg, answers are served as recorded.
 */
export const ffmpegBinary = () => process.env.FFMPEG_PATH || "ffmpeg";
export const ffprobeBinary = () =>
  process.env.FFPROBE_PATH ||
  (process.env.FFMPEG_PATH ? path.join(path.dirname(process.env.FFMPEG_PATH), "ffprobe") : "ffprobe");

/** How long one transcode may take: a five-minute recording takes a few seconds. */
const TRANSCODE_TIMEOUT_MS = 120_000;

export class FfmpegError extends Error {
  override name = "FfmpegError";
}

type RunResult = { stdout: string; stderr: string };

/** Runs a binary without a shell; rejects with its exit code and the tail of stderr. */
function run(binary: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout = (stdout + chunk).slice(-65_536);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-8_192);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new FfmpegError(`${path.basename(binary)} could not start: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && !timedOut) return resolve({ stdout, stderr });
      const how = timedOut
        ? `timed out after ${timeoutMs} ms`
        : signal
          ? `was killed by ${signal}`
          : `exited with code ${code}`;
      const tail = stderr.trim().split("\n").slice(-10).join("\n");
      reject(new FfmpegError(`${path.basename(binary)} ${how}${tail ? `: ${tail}` : ""}`));
    });
  });
}

let available: Promise<boolean> | undefined;

/** Whether ffmpeg runs here; checked once per process (`ffmpeg -version`). */
export function ffmpegAvailable(): Promise<boolean> {
  available ??= run(ffmpegBinary(), ["-hide_banner", "-version"], 10_000).then(
    () => true,
    () => false,
  );
  return available;
}

/** Forgets the cached answer of ffmpegAvailable (tests that change FFMPEG_PATH). */
export function resetFfmpegAvailability() {
  available = undefined;
}

/**
 * Transcodes any audio file ffmpeg reads into AAC in an M4A (MP4) file that every browser plays,
 * iOS Safari included: mono, 64 kbit/s, the index at the front so playback starts before the
 * whole file arrives. The copy carries none of the input's metadata (a device may write where and on
 * what it recorded), no chapters and no encoder tags. `output` is overwritten.
 */
export async function transcodeToM4a(
  input: string,
  output: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  await run(
    ffmpegBinary(),
    [
      ...["-hide_banner", "-nostdin", "-loglevel", "error", "-y"],
      ...["-i", input],
      ...["-vn", "-ac", "1", "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart"],
      ...["-map_metadata", "-1", "-map_chapters", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact"],
      ...["-f", "ipod", output],
    ],
    options.timeoutMs ?? TRANSCODE_TIMEOUT_MS,
  );
}

/** The duration ffprobe reads from the container, in milliseconds; null when ffprobe is missing or cannot tell. */
export async function probeDurationMs(file: string, options: { timeoutMs?: number } = {}): Promise<number | null> {
  try {
    const { stdout } = await run(
      ffprobeBinary(),
      ["-v", "error", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", file],
      options.timeoutMs ?? 30_000,
    );
    const seconds = Number.parseFloat(stdout.trim());
    return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null;
  } catch {
    return null;
  }
}
