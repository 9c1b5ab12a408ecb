import { open } from "node:fs/promises";
import { parseFile } from "music-metadata";

/**
 * How long a recording lasts, read from the file itself (never from what the browser says).
 * Browsers' MediaRecorder WebM files carry no duration and sizes the usual parsers reject, so WebM
 * is measured by walking its EBML structure to the last block's timestamp; every other format
 * (Ogg, MP4/M4A, MP3, WAV) goes through music-metadata. Null when the file cannot be measured.
 */
export async function audioDurationMs(file: string, mime: string): Promise<number | null> {
  if (mime === "audio/webm") return webmDurationMs(file);
  try {
    const { format } = await parseFile(file, { duration: true });
    return format.duration && Number.isFinite(format.duration) && format.duration > 0
      ? Math.round(format.duration * 1000)
      : null;
  } catch {
    return null;
  }
}

// Matroska element ids (with their length-marker bits, as they appear in the file).
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const CLUSTER = 0x1f43b675;
const CLUSTER_TIMECODE = 0xe7;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const SIMPLE_BLOCK = 0xa3;
/** Elements whose children are read; everything else is skipped by its size. */
const CONTAINERS = new Set([SEGMENT, INFO, CLUSTER, BLOCK_GROUP]);
/** Opus in WebM: the last block's own length is not stored; one 20 ms frame is a fair bound. */
const LAST_FRAME_MS = 20;
/** A 5-minute recording has about 15,000 blocks; a file of tiny filler elements is not measured. */
const MAX_ELEMENTS = 200_000;

/** A little read-ahead window over a file handle, so walking 15,000 blocks is not 15,000 reads. */
class FileWindow {
  private buffer = Buffer.alloc(0);
  private start = 0;
  constructor(
    private readonly handle: Awaited<ReturnType<typeof open>>,
    readonly size: number,
  ) {}
  async bytes(position: number, length: number): Promise<Buffer | null> {
    if (position + length > this.size) return null;
    if (position < this.start || position + length > this.start + this.buffer.length) {
      const chunk = Buffer.alloc(Math.min(Math.max(length, 64 * 1024), this.size - position));
      const { bytesRead } = await this.handle.read(chunk, 0, chunk.length, position);
      this.buffer = chunk.subarray(0, bytesRead);
      this.start = position;
    }
    return this.buffer.subarray(position - this.start, position - this.start + length);
  }
}

/** An EBML variable-length integer at `position`: its value (marker kept for ids) and length. */
async function readVint(window: FileWindow, position: number, keepMarker: boolean) {
  const first = await window.bytes(position, 1);
  if (!first || first[0] === 0) return null;
  const length = Math.clz32(first[0]) - 23; // leading zeros within the byte, plus one
  const bytes = await window.bytes(position, length);
  if (!bytes) return null;
  let value = keepMarker ? first[0] : first[0] & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[i];
    if (bytes[i] !== 0xff) allOnes = false;
  }
  return { value, length, unknownSize: !keepMarker && allOnes };
}

async function readUint(window: FileWindow, position: number, size: number) {
  const bytes = await window.bytes(position, size);
  if (!bytes || size > 8) return null;
  return bytes.reduce((value, byte) => value * 256 + byte, 0);
}

async function webmDurationMs(file: string): Promise<number | null> {
  const handle = await open(file, "r");
  try {
    const window = new FileWindow(handle, (await handle.stat()).size);
    let position = 0;
    let timecodeScaleNs = 1_000_000;
    let declaredMs: number | null = null;
    let clusterTimecode = 0;
    let lastBlockMs = -1;
    for (let elements = 0; position < window.size; elements++) {
      if (elements > MAX_ELEMENTS) return null;
      const id = await readVint(window, position, true);
      if (!id) break;
      const size = await readVint(window, position + id.length, false);
      if (!size) break;
      const dataStart = position + id.length + size.length;
      if (CONTAINERS.has(id.value)) {
        position = dataStart; // descend (sizes may be "unknown" while recording)
        continue;
      }
      if (size.unknownSize || dataStart + size.value > window.size) break; // a truncated file ends here
      if (id.value === TIMECODE_SCALE)
        timecodeScaleNs = (await readUint(window, dataStart, size.value)) ?? timecodeScaleNs;
      else if (id.value === CLUSTER_TIMECODE)
        clusterTimecode = (await readUint(window, dataStart, size.value)) ?? clusterTimecode;
      else if (id.value === DURATION) {
        const bytes = await window.bytes(dataStart, size.value);
        if (bytes && size.value === 8) declaredMs = bytes.readDoubleBE(0);
        else if (bytes && size.value === 4) declaredMs = bytes.readFloatBE(0);
      } else if (id.value === SIMPLE_BLOCK || id.value === BLOCK) {
        const track = await readVint(window, dataStart, false);
        const relative = track ? await window.bytes(dataStart + track.length, 2) : null;
        if (relative) lastBlockMs = Math.max(lastBlockMs, clusterTimecode + relative.readInt16BE(0));
      }
      position = dataStart + size.value;
    }
    // Only believable clocks (1 µs to 1 s per tick); the file is the uploader's to make up.
    if (!(timecodeScaleNs >= 1_000 && timecodeScaleNs <= 1_000_000_000)) return null;
    const scale = timecodeScaleNs / 1_000_000;
    const ms = lastBlockMs >= 0 ? lastBlockMs * scale + LAST_FRAME_MS : declaredMs !== null ? declaredMs * scale : null;
    return ms !== null && Number.isFinite(ms) && ms > 0 ? Math.round(ms) : null;
  } finally {
    await handle.close();
  }
}
