import { open, stat } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";
import { parseFile } from "music-metadata";
import { audioDurationMs } from "./audio-duration.server";
import { decodedDurationMs, ffmpegAvailable, probeStreams } from "./audio.server";

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const MAX_DURATION_MS = 5 * 60_000;
/** Recorders stop a little after 5:00 (the last chunk, the stop click); this much over is fine. */
const DURATION_TOLERANCE_MS = 5_000;

/**
 * The containers phones and browsers record into, as their first bytes name them: how each is
 * stored and served, which ffmpeg demuxer reads it, and whether the server can judge it without
 * ffmpeg (music-metadata, or our WebM walker) in a form every browser plays.
 */
type Container = {
  contentType: string;
  extension: string;
  demuxer: string;
  withoutFfmpeg: boolean;
};
const CONTAINERS = {
  webm: { contentType: "audio/webm", extension: "webm", demuxer: "matroska", withoutFfmpeg: true },
  ogg: { contentType: "audio/ogg", extension: "ogg", demuxer: "ogg", withoutFfmpeg: true },
  mp4: { contentType: "audio/mp4", extension: "m4a", demuxer: "mov", withoutFfmpeg: true },
  "3gp": { contentType: "audio/3gpp", extension: "3gp", demuxer: "mov", withoutFfmpeg: false },
  "3g2": { contentType: "audio/3gpp2", extension: "3g2", demuxer: "mov", withoutFfmpeg: false },
  amr: { contentType: "audio/amr", extension: "amr", demuxer: "amr", withoutFfmpeg: false },
  amrWb: { contentType: "audio/amr-wb", extension: "awb", demuxer: "amr", withoutFfmpeg: false },
  aac: { contentType: "audio/aac", extension: "aac", demuxer: "aac", withoutFfmpeg: false },
  caf: { contentType: "audio/x-caf", extension: "caf", demuxer: "caf", withoutFfmpeg: false },
  mp3: { contentType: "audio/mpeg", extension: "mp3", demuxer: "mp3", withoutFfmpeg: true },
  wav: { contentType: "audio/wav", extension: "wav", demuxer: "wav", withoutFfmpeg: true },
  flac: { contentType: "audio/flac", extension: "flac", demuxer: "flac", withoutFfmpeg: true },
} satisfies Record<string, Container>;
type ContainerName = keyof typeof CONTAINERS;

// file-type's names for what it recognises → ours.
const FILE_TYPE_NAMES: Record<string, ContainerName> = {
  webm: "webm",
  ogg: "ogg",
  oga: "ogg",
  opus: "ogg",
  m4a: "mp4",
  mp4: "mp4",
  "3gp": "3gp",
  "3g2": "3g2",
  amr: "amr",
  aac: "aac",
  mp3: "mp3",
  wav: "wav",
  flac: "flac",
};

/** The container an upload's first bytes name (never its file name or the browser's word); null for anything else. */
async function sniffContainer(file: string): Promise<ContainerName | null> {
  const handle = await open(file, "r");
  const head = Buffer.alloc(12);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  // Apple's Core Audio Format and wideband AMR, which file-type does not tell apart.
  if (head.subarray(0, 4).toString("latin1") === "caff") return "caf";
  if (head.subarray(0, 9).toString("latin1") === "#!AMR-WB\n") return "amrWb";
  const detected = await fileTypeFromFile(file);
  return (detected && FILE_TYPE_NAMES[detected.ext]) ?? null;
}

export type AudioProblem = "empty" | "tooLarge" | "notAudio" | "tooLong" | "unreadable" | "unsupported";
export type AudioCheck =
  | { ok: true; contentType: string; extension: string; byteSize: number; durationMs: number }
  | { ok: false; problem: AudioProblem };

/**
 * The server's own look at an uploaded file: its size, what its bytes say it is (never its name),
 * and how long it really is. With ffmpeg (the Docker image and CI have it) the file is decoded:
 * it is audio if its first audio stream decodes, and its duration is what decoding found. Without
 * ffmpeg only the formats music-metadata can measure and every browser plays are taken; the others
 * are "unsupported" (this server cannot take them yet). docs/decisions/021-judging-audio-by-decoding.md.
 */
export async function checkAudioFile(file: string): Promise<AudioCheck> {
  const { size } = await stat(file);
  if (size === 0) return { ok: false, problem: "empty" };
  if (size > MAX_UPLOAD_BYTES) return { ok: false, problem: "tooLarge" };
  const name = await sniffContainer(file);
  if (!name) return { ok: false, problem: "notAudio" };
  const container: Container = CONTAINERS[name];
  const judged = (await ffmpegAvailable())
    ? await decodingTurn(() => judgeByDecoding(file, container))
    : await judgeWithoutFfmpeg(file, name, container);
  if (!judged.ok) return judged;
  const { durationMs } = judged;
  if (durationMs > MAX_DURATION_MS + DURATION_TOLERANCE_MS) return { ok: false, problem: "tooLong" };
  return { ok: true, contentType: container.contentType, extension: container.extension, byteSize: size, durationMs };
}

type Judged = { ok: true; durationMs: number } | { ok: false; problem: AudioProblem };

/**
 * Runs at most `max` of the given tasks at once; the others wait their turn, first come first
 * served. Decoding takes a core: a burst of uploads queues instead of starving the web process.
 */
export function limitConcurrency(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running < max) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
const decodingTurn = limitConcurrency(2);

async function judgeByDecoding(file: string, container: Container): Promise<Judged> {
  const input = { file, demuxer: container.demuxer };
  const streams = await probeStreams(input);
  if (!streams) return { ok: false, problem: "unreadable" };
  if (streams === "otherCodec") return { ok: false, problem: "notAudio" };
  // A cover picture (MP3, M4A) is fine; a film is not a voice recording, nor is a file with no sound.
  if (streams.some((stream) => stream.codecType === "video" && !stream.attachedPicture))
    return { ok: false, problem: "notAudio" };
  if (!streams.some((stream) => stream.codecType === "audio")) return { ok: false, problem: "notAudio" };
  // Decoding stops just past the limit: enough to know a file is too long.
  const durationMs = await decodedDurationMs(input, { limitMs: MAX_DURATION_MS + DURATION_TOLERANCE_MS + 1_000 });
  if (durationMs === null) return { ok: false, problem: "unreadable" };
  if (durationMs === 0) return { ok: false, problem: "empty" };
  return { ok: true, durationMs };
}

/** Without ffmpeg: music-metadata (or the WebM walker) measures what every browser plays; MP4 only with AAC. */
async function judgeWithoutFfmpeg(file: string, name: ContainerName, container: Container): Promise<Judged> {
  if (!container.withoutFfmpeg) return { ok: false, problem: "unsupported" };
  if (name === "mp4") {
    const codec = await parseFile(file, { duration: false }).then(
      ({ format }) => format.codec ?? "",
      () => "",
    );
    if (!/aac/i.test(codec)) return { ok: false, problem: "unsupported" };
  }
  const durationMs = await audioDurationMs(file, container.contentType);
  return durationMs === null ? { ok: false, problem: "unreadable" } : { ok: true, durationMs };
}

/**
 * Whether a stored recording plays in every browser as it is, seeking included, so that it needs no
 * AAC copy: MP3, and AAC in an MP4 file with its index (not fragmented: Safari's MediaRecorder
 * writes fragments with no overall duration). Everything else gets a copy when ffmpeg is here.
 */
export async function servedAsRecorded(file: string): Promise<boolean> {
  const name = await sniffContainer(file);
  if (name === "mp3") return true;
  if (name !== "mp4" || (await isFragmentedMp4(file))) return false;
  const streams = await probeStreams({ file, demuxer: CONTAINERS.mp4.demuxer });
  const audio = Array.isArray(streams) ? streams.filter((stream) => stream.codecType === "audio") : [];
  return audio.length === 1 && audio[0].codecName === "aac";
}

/** An MP4 file written in fragments has a top-level `moof` box. */
async function isFragmentedMp4(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    for (let position = 0, boxes = 0; position + 8 <= size && boxes < 10_000; boxes++) {
      const { bytesRead } = await handle.read(header, 0, 16, position);
      if (bytesRead < 8) return false;
      const type = header.subarray(4, 8).toString("latin1");
      if (type === "moof") return true;
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1 && bytesRead >= 16) boxSize = Number(header.readBigUInt64BE(8));
      if (boxSize === 0) return false; // the last box runs to the end
      if (boxSize < 8) return false;
      position += boxSize;
    }
    return false;
  } finally {
    await handle.close();
  }
}
