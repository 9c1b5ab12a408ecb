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

const available = new Map<string, Promise<boolean>>();

/**
 * Whether ffmpeg and ffprobe both run here (`-version`); checked once per process for each pair of
 * paths. Without them uploads are judged by the JavaScript fallback (app/services/audio-check.server.ts)
 * and answers are served as recorded.
 */
export function ffmpegAvailable(): Promise<boolean> {
  const binaries = [ffmpegBinary(), ffprobeBinary()];
  const key = binaries.join("\n");
  let answer = available.get(key);
  if (!answer) {
    answer = Promise.all(binaries.map((binary) => run(binary, ["-hide_banner", "-version"], 10_000))).then(
      () => true,
      () => false,
    );
    available.set(key, answer);
  }
  return answer;
}

/** Forgets what ffmpegAvailable found (tests that install or remove a binary). */
export function resetFfmpegAvailability() {
  available.clear();
}

/**
 * How an uploaded file is opened: only as a local file (`file:` and nothing else, so no playlist or
 * reference inside it can make ffmpeg fetch anything), only with the demuxer its first bytes named,
 * and only with the decoders a recording can need.
 */
export type SafeInput = { file: string; demuxer: string };

/**
 * The decoders a phone's or browser's recording needs (and its cover picture's, which MP3 and M4A
 * files may carry); a file with any other stream is not opened at all.
 */
export const AUDIO_DECODERS = [
  "mjpeg",
  "png",
  "opus",
  "libopus",
  "vorbis",
  "aac",
  "aac_fixed",
  "alac",
  "amrnb",
  "amrwb",
  "mp3",
  "mp3float",
  "flac",
  "adpcm_ima_qt",
  "adpcm_ima_wav",
  "adpcm_ms",
  "pcm_alaw",
  "pcm_mulaw",
  "pcm_u8",
  "pcm_s8",
  "pcm_s16le",
  "pcm_s16be",
  "pcm_s24le",
  "pcm_s24be",
  "pcm_s32le",
  "pcm_s32be",
  "pcm_f32le",
  "pcm_f32be",
  "pcm_f64le",
  "pcm_f64be",
];

const inputArgs = ({ file, demuxer }: SafeInput) => [
  ...["-protocol_whitelist", "file", "-format_whitelist", demuxer, "-codec_whitelist", AUDIO_DECODERS.join(",")],
  ...["-f", demuxer, "-i", `file:${path.resolve(file)}`],
];

export type ProbedStream = { codecType: string; codecName: string | null; attachedPicture: boolean };

/**
 * The streams ffprobe finds in an upload (read as `input` says); "otherCodec" when a stream needs a
 * decoder a recording does not (a film's video, say); null when it cannot read the file.
 */
export async function probeStreams(
  input: SafeInput,
  options: { timeoutMs?: number } = {},
): Promise<ProbedStream[] | "otherCodec" | null> {
  try {
    const { stdout } = await run(
      ffprobeBinary(),
      [
        ...["-hide_banner", "-v", "error"],
        ...["-show_entries", "stream=codec_type,codec_name:stream_disposition=attached_pic", "-of", "json"],
        ...inputArgs(input),
      ],
      options.timeoutMs ?? 20_000,
    );
    const parsed = JSON.parse(stdout) as {
      streams?: { codec_type?: string; codec_name?: string; disposition?: { attached_pic?: number } }[];
    };
    return (parsed.streams ?? []).map((stream): ProbedStream => ({
      codecType: stream.codec_type ?? "unknown",
      codecName: stream.codec_name ?? null,
      attachedPicture: stream.disposition?.attached_pic === 1,
    }));
  } catch (error) {
    // ffmpeg's own words when a stream's decoder is not in the list.
    return error instanceof FfmpegError && / not on whitelist /.test(error.message) ? "otherCodec" : null;
  }
}

/**
 * How much sound the file's first audio stream really holds, in milliseconds, found by decoding it
 * (to nowhere) rather than by believing the container's header. Decoding stops at `limitMs`, so a
 * long file costs no more than a limit-long one. Null when ffmpeg cannot decode it.
 */
export async function decodedDurationMs(
  input: SafeInput,
  options: { limitMs: number; timeoutMs?: number },
): Promise<number | null> {
  try {
    const { stdout } = await run(
      ffmpegBinary(),
      [
        ...["-hide_banner", "-nostdin", "-v", "error", "-nostats", "-threads", "1"],
        ...["-t", String(options.limitMs / 1000)],
        ...inputArgs(input),
        ...["-map", "0:a:0", "-vn", "-sn", "-dn", "-f", "null", "-progress", "pipe:1", "-"],
      ],
      options.timeoutMs ?? 60_000,
    );
    // -progress prints key=value blocks; the last out_time_us is how far decoding got.
    const times = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)].map((match) => Number(match[1]));
    const last = times.at(-1);
    return last === undefined || !Number.isFinite(last) ? null : Math.round(last / 1000);
  } catch {
    return null;
  }
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
      ...["-protocol_whitelist", "file", "-codec_whitelist", AUDIO_DECODERS.join(",")],
      ...["-i", `file:${path.resolve(input)}`],
      ...["-map", "0:a:0", "-vn", "-ac", "1", "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart"],
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
