import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { ffmpegBinary, ffprobeBinary } from "../app/services/audio.server";

/** A WAV file of silence, `seconds` long (8 kHz mono, 8- or 16-bit PCM), built by hand for upload tests. */
export function silentWav(seconds: number, bitsPerSample: 8 | 16 = 8): Buffer {
  const bytesPerSample = bitsPerSample / 8;
  const dataBytes = Math.round(seconds * 8000) * bytesPerSample;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000 * bytesPerSample, 28); // byte rate
  header.writeUInt16LE(bytesPerSample, 32); // block align
  header.writeUInt16LE(bitsPerSample, 34);
  header.write("data", 36);
  header.writeUInt32LE(dataBytes, 40);
  // Silence is 128 for 8-bit (unsigned) and 0 for 16-bit (signed) samples.
  return Buffer.concat([header, Buffer.alloc(dataBytes, bitsPerSample === 8 ? 128 : 0)]);
}

/**
 * A raw AMR file (RFC 4867 §5, the storage format Android's recorder apps write), assembled by hand
 * because Debian's ffmpeg and sox have no AMR encoder: the magic line, then one speech frame per
 * 20 ms at the highest rate (AMR-NB 12.2 kbit/s, mode 7: a header byte and 31 bytes; AMR-WB 23.85
 * kbit/s, mode 8: a header byte and 60 bytes). The frames' bits are a fixed pseudo-random pattern:
 * every bit pattern is a valid frame of these modes, so ffmpeg decodes it as `seconds` of (noisy) sound.
 */
export function amrFile(kind: "nb" | "wb", seconds: number): Buffer {
  const [magic, mode, payloadBytes] = kind === "nb" ? ["#!AMR\n", 7, 31] : ["#!AMR-WB\n", 8, 60];
  const frames: Buffer[] = [];
  let seed = 1;
  for (let i = 0; i < Math.round(seconds * 50); i++) {
    const frame = Buffer.alloc(1 + payloadBytes);
    frame[0] = (mode << 3) | 0x04; // frame type, quality bit set ("good frame")
    for (let j = 1; j < frame.length; j++) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      frame[j] = (seed >> 16) & 0xff;
    }
    frames.push(frame);
  }
  return Buffer.concat([Buffer.from(magic, "latin1"), ...frames]);
}

/**
 * AAC in Apple's Core Audio Format, as iOS apps record it (AVAudioRecorder writing `.caf`), which
 * Debian's ffmpeg cannot write: the ADTS file's raw AAC packets in a `data` chunk, their sizes in a
 * `pakt` chunk, and the decoder's configuration as an MPEG-4 ES descriptor in the `kuki` chunk.
 */
export function cafWithAac(adts: Buffer): Buffer {
  const packets: Buffer[] = [];
  let header = adts.subarray(0, 7);
  for (let at = 0; at + 7 <= adts.length;) {
    header = adts.subarray(at, at + 7);
    if (header[0] !== 0xff || (header[1] & 0xf0) !== 0xf0) throw new Error(`no ADTS frame at byte ${at}`);
    const headerLength = header[1] & 0x01 ? 7 : 9; // protection_absent
    const frameLength = ((header[3] & 0x03) << 11) | (header[4] << 3) | (header[5] >> 5);
    packets.push(adts.subarray(at + headerLength, at + frameLength));
    at += frameLength;
  }
  const objectType = (header[2] >> 6) + 1; // 2: AAC LC
  const rateIndex = (header[2] >> 2) & 0x0f;
  const channels = ((header[2] & 0x01) << 2) | (header[3] >> 6);
  const sampleRate = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000][rateIndex];

  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(12);
    head.write(type, 0, "latin1");
    head.writeBigInt64BE(BigInt(body.length), 4);
    return Buffer.concat([head, body]);
  };
  const desc = Buffer.alloc(32);
  desc.writeDoubleBE(sampleRate, 0);
  desc.write("aac ", 8, "latin1");
  desc.writeUInt32BE(objectType, 12); // format flags: the MPEG-4 object type
  desc.writeUInt32BE(0, 16); // bytes per packet: variable
  desc.writeUInt32BE(1024, 20); // frames per packet
  desc.writeUInt32BE(channels, 24);
  desc.writeUInt32BE(0, 28); // bits per channel: compressed
  const descriptor = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag, body.length]), body]);
  const audioSpecificConfig = Buffer.from([
    (objectType << 3) | (rateIndex >> 1),
    ((rateIndex & 1) << 7) | (channels << 3),
  ]);
  const decoderConfig = descriptor(
    0x04,
    Buffer.concat([Buffer.from([0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), descriptor(0x05, audioSpecificConfig)]),
  );
  const esDescriptor = descriptor(
    0x03,
    Buffer.concat([Buffer.from([0, 0, 0]), decoderConfig, descriptor(0x06, Buffer.from([2]))]),
  );
  const kuki = Buffer.concat([Buffer.alloc(4), esDescriptor]); // version and flags, then the descriptor
  const sizes = packets.map((packet) => {
    const bytes = [packet.length & 0x7f];
    for (let rest = packet.length >> 7; rest > 0; rest >>= 7) bytes.unshift((rest & 0x7f) | 0x80);
    return Buffer.from(bytes);
  });
  const paktHead = Buffer.alloc(24);
  paktHead.writeBigInt64BE(BigInt(packets.length), 0);
  paktHead.writeBigInt64BE(BigInt(packets.length * 1024), 8); // valid frames (no priming or remainder declared)
  return Buffer.concat([
    Buffer.from([0x63, 0x61, 0x66, 0x66, 0, 1, 0, 0]), // "caff", version 1, no flags
    chunk("desc", desc),
    chunk("kuki", kuki),
    chunk("pakt", Buffer.concat([paktHead, ...sizes])),
    chunk("data", Buffer.concat([Buffer.alloc(4), ...packets])), // edit count, then the packets
  ]);
}

export type AudioFixture = {
  /** What it is, for test names: "3GP with AMR-NB (Android's recorder)". */
  label: string;
  file: string;
  /** How the server stores it. */
  contentType: string;
  extension: string;
  /** Plays everywhere as recorded (MP3, indexed AAC-in-MP4): no playable copy is made. */
  servedAsRecorded: boolean;
  /** Taken (and measured) by a server without ffmpeg too. */
  takenWithoutFfmpeg: boolean;
};

const run = promisify(execFile);

/** ffmpeg writing `seconds` of a 440 Hz tone at `rate` Hz with `codec` (output args) to `file`. */
async function tone(file: string, seconds: number, rate: number, codec: string[]) {
  await run(ffmpegBinary(), [
    ...["-hide_banner", "-nostdin", "-loglevel", "error", "-y"],
    ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}:sample_rate=${rate}`],
    ...codec,
    file,
  ]);
}

/** ffmpeg putting an existing file's audio, as it is, into another container. */
async function remux(input: string, file: string, format: string) {
  await run(ffmpegBinary(), [
    ...["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-i", input, "-c:a", "copy", "-f", format, file],
  ]);
}

type Spec = {
  name: string;
  label: string;
  contentType: string;
  extension: string;
  /** Plays everywhere as recorded (MP3, indexed AAC-in-MP4), else false. */
  asIs?: true;
  /** Taken without ffmpeg too, else false. */
  noFfmpeg?: true;
  /** The file of an earlier spec that `make` reads (so a chosen few still get what they need). */
  from?: string;
  make: (file: string, seconds: number, at: (name: string) => string) => Promise<unknown>;
};

const wavs = (
  [
    [8_000, "pcm_u8", 8],
    [16_000, "pcm_s16le", 16],
    [44_100, "pcm_s16le", 16],
    [48_000, "pcm_s24le", 24],
  ] as const
).map(([rate, codec, bits]): Spec => ({
  name: `${rate}-${bits}.wav`,
  label: `WAV, ${rate / 1000} kHz ${bits}-bit`,
  contentType: "audio/wav",
  extension: "wav",
  noFfmpeg: true,
  make: (file, seconds) => tone(file, seconds, rate, ["-c:a", codec, "-f", "wav"]),
}));

/** Every format a phone or browser records in (the order matters: the 3GP ones reuse the raw AMR files). */
const SPECS: Spec[] = [
  // Browsers' MediaRecorder: Chrome and Edge (WebM), Firefox (Ogg), Safari (fragmented MP4).
  {
    name: "opus.webm",
    label: "WebM with Opus (Chrome)",
    contentType: "audio/webm",
    extension: "webm",
    noFfmpeg: true,
    make: (file, seconds) => tone(file, seconds, 48_000, ["-c:a", "libopus", "-b:a", "24k", "-f", "webm"]),
  },
  {
    name: "opus.ogg",
    label: "Ogg with Opus (Firefox)",
    contentType: "audio/ogg",
    extension: "ogg",
    noFfmpeg: true,
    make: (file, seconds) => tone(file, seconds, 48_000, ["-c:a", "libopus", "-b:a", "24k", "-f", "ogg"]),
  },
  {
    name: "fragmented.mp4",
    label: "fragmented MP4 with AAC (Safari)",
    contentType: "audio/mp4",
    extension: "m4a",
    noFfmpeg: true,
    make: (file, seconds) =>
      tone(file, seconds, 48_000, [
        ...["-c:a", "aac", "-b:a", "64k", "-f", "mp4", "-frag_duration", "500000"],
        ...["-movflags", "+frag_keyframe+empty_moov+default_base_moof"],
      ]),
  },
  // iPhone and iPad: Voice Memos (M4A, AAC or lossless), apps writing Core Audio Format.
  {
    name: "aac.m4a",
    label: "M4A with AAC (Voice Memos)",
    contentType: "audio/mp4",
    extension: "m4a",
    asIs: true,
    noFfmpeg: true,
    make: (file, seconds) => tone(file, seconds, 44_100, ["-c:a", "aac", "-b:a", "64k", "-f", "ipod"]),
  },
  {
    name: "alac.m4a",
    label: "M4A with ALAC (Voice Memos, lossless)",
    contentType: "audio/mp4",
    extension: "m4a",
    make: (file, seconds) => tone(file, seconds, 44_100, ["-c:a", "alac", "-f", "ipod"]),
  },
  {
    name: "alac.caf",
    label: "CAF with ALAC (iOS)",
    contentType: "audio/x-caf",
    extension: "caf",
    make: (file, seconds) => tone(file, seconds, 44_100, ["-c:a", "alac", "-f", "caf"]),
  },
  {
    name: "pcm.caf",
    label: "CAF with 16-bit PCM (iOS)",
    contentType: "audio/x-caf",
    extension: "caf",
    make: (file, seconds) => tone(file, seconds, 44_100, ["-c:a", "pcm_s16be", "-f", "caf"]),
  },
  {
    name: "aac.caf",
    label: "CAF with AAC (iOS)",
    contentType: "audio/x-caf",
    extension: "caf",
    make: async (file, seconds, at) => {
      await tone(at("for-caf.aac"), seconds, 44_100, ["-c:a", "aac", "-b:a", "64k", "-f", "adts"]);
      await writeFile(file, cafWithAac(await readFile(at("for-caf.aac"))));
    },
  },
  // Android and older phones: raw AMR, AMR or AAC in 3GP and 3G2, ADTS AAC.
  {
    name: "nb.amr",
    label: "raw AMR-NB",
    contentType: "audio/amr",
    extension: "amr",
    make: (file, seconds) => writeFile(file, amrFile("nb", seconds)),
  },
  {
    name: "wb.awb",
    label: "raw AMR-WB",
    contentType: "audio/amr-wb",
    extension: "awb",
    make: (file, seconds) => writeFile(file, amrFile("wb", seconds)),
  },
  {
    name: "amr-nb.3gp",
    label: "3GP with AMR-NB",
    contentType: "audio/3gpp",
    extension: "3gp",
    from: "nb.amr",
    make: (file, _seconds, at) => remux(at("nb.amr"), file, "3gp"),
  },
  {
    name: "amr-wb.3gp",
    label: "3GP with AMR-WB",
    contentType: "audio/3gpp",
    extension: "3gp",
    from: "wb.awb",
    make: (file, _seconds, at) => remux(at("wb.awb"), file, "3gp"),
  },
  {
    name: "aac.3gp",
    label: "3GP with AAC",
    contentType: "audio/3gpp",
    extension: "3gp",
    make: (file, seconds) => tone(file, seconds, 16_000, ["-c:a", "aac", "-b:a", "32k", "-f", "3gp"]),
  },
  {
    name: "amr-nb.3g2",
    label: "3G2 with AMR-NB",
    contentType: "audio/3gpp2",
    extension: "3g2",
    from: "nb.amr",
    make: (file, _seconds, at) => remux(at("nb.amr"), file, "3g2"),
  },
  {
    name: "aac.3g2",
    label: "3G2 with AAC",
    contentType: "audio/3gpp2",
    extension: "3g2",
    make: (file, seconds) => tone(file, seconds, 16_000, ["-c:a", "aac", "-b:a", "32k", "-f", "3g2"]),
  },
  {
    name: "adts.aac",
    label: "ADTS AAC",
    contentType: "audio/aac",
    extension: "aac",
    make: (file, seconds) => tone(file, seconds, 44_100, ["-c:a", "aac", "-b:a", "64k", "-f", "adts"]),
  },
  // Everything else a recorder may save: MP3, WAV (8 to 48 kHz, 8/16/24-bit), FLAC.
  {
    name: "tone.mp3",
    label: "MP3",
    contentType: "audio/mpeg",
    extension: "mp3",
    asIs: true,
    noFfmpeg: true,
    make: (file, seconds) => tone(file, seconds, 22_050, ["-c:a", "libmp3lame", "-b:a", "32k", "-f", "mp3"]),
  },
  ...wavs,
  {
    name: "tone.flac",
    label: "FLAC",
    contentType: "audio/flac",
    extension: "flac",
    noFfmpeg: true,
    make: (file, seconds) => tone(file, seconds, 16_000, ["-c:a", "flac", "-f", "flac"]),
  },
];

/** The fixtures' labels, known before they are made (for one test per format). */
/**
 * A voice note as WhatsApp records it (Ogg with Opus, 16 kHz mono) or as a phone's recorder shares
 * one (M4A with AAC), `seconds` long, made with ffmpeg.
 */
export async function makeVoiceNote(file: string, kind: "ogg" | "m4a", seconds = 2) {
  await tone(
    file,
    seconds,
    kind === "ogg" ? 16_000 : 44_100,
    kind === "ogg"
      ? ["-ac", "1", "-c:a", "libopus", "-b:a", "16k", "-f", "ogg"]
      : ["-c:a", "aac", "-b:a", "48k", "-f", "ipod"],
  );
}

export const AUDIO_FIXTURE_LABELS = SPECS.map((spec) => spec.label);

/**
 * One small recording (`seconds` long: 1-3 s keeps tests fast) in each format a phone or browser
 * makes, generated into `folder` with ffmpeg (and by hand for AMR, which Debian's ffmpeg cannot
 * encode): nothing downloaded, no binaries committed. `labels` makes only those (and what they are
 * made from).
 */
export async function makeAudioFixtures(
  folder: string,
  seconds = 2,
  labels: readonly string[] = AUDIO_FIXTURE_LABELS,
): Promise<AudioFixture[]> {
  const at = (name: string) => path.join(folder, name);
  const wanted = SPECS.filter((spec) => labels.includes(spec.label));
  const sources = new Set(wanted.map((spec) => spec.from));
  const fixtures: AudioFixture[] = [];
  for (const spec of SPECS.filter((one) => wanted.includes(one) || sources.has(one.name))) {
    await spec.make(at(spec.name), seconds, at);
    fixtures.push({
      label: spec.label,
      file: at(spec.name),
      contentType: spec.contentType,
      extension: spec.extension,
      servedAsRecorded: spec.asIs ?? false,
      takenWithoutFfmpeg: spec.noFfmpeg ?? false,
    });
  }
  return fixtures;
}

/** What ffprobe says a file's duration is, in milliseconds (the yardstick for the server's own figure). */
export async function ffprobeDurationMs(file: string): Promise<number> {
  const { stdout } = await run(ffprobeBinary(), [
    ...["-v", "error", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", file],
  ]);
  return Math.round(Number.parseFloat(stdout.trim()) * 1000);
}

/** The codec of a file's first audio stream, as ffprobe names it ("aac", "amr_nb", …). */
export async function ffprobeAudioCodec(file: string): Promise<string> {
  const { stdout } = await run(ffprobeBinary(), [
    ...["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", file],
  ]);
  return stdout.trim();
}
