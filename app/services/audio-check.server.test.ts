import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUDIO_FIXTURE_LABELS,
  amrFile,
  type AudioFixture,
  ffprobeDurationMs,
  makeAudioFixtures,
  silentWav,
} from "../../tests/audio-fixtures";
import { checkAudioFile, limitConcurrency, servedAsRecorded } from "./audio-check.server";
import { decodedDurationMs, ffmpegAvailable, ffmpegBinary, resetFfmpegAvailability } from "./audio.server";

// The server's judgement of an upload: what it is and how long, by decoding with ffmpeg when it is
// here, by music-metadata (for the formats it can measure and browsers play) when it is not.
let work: string;
let fixtures: AudioFixture[];
const run = promisify(execFile);

beforeAll(async () => {
  if (!(await ffmpegAvailable()))
    throw new Error("ffmpeg and ffprobe are required for these tests (CI installs them): apt-get install ffmpeg");
  work = await mkdtemp(path.join(os.tmpdir(), "heirloom-audio-check-"));
  fixtures = await makeAudioFixtures(work);
}, 60_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const at = (name: string) => path.join(work, name);
async function fileWith(name: string, bytes: Buffer | string) {
  await writeFile(at(name), bytes);
  return at(name);
}

/** Runs with ffmpeg and ffprobe "not installed" (their paths pointing nowhere). */
async function withoutFfmpeg<T>(body: () => Promise<T>): Promise<T> {
  const previous = { ffmpeg: process.env.FFMPEG_PATH, ffprobe: process.env.FFPROBE_PATH };
  process.env.FFMPEG_PATH = path.join(work, "no-such-ffmpeg");
  process.env.FFPROBE_PATH = path.join(work, "no-such-ffprobe");
  resetFfmpegAvailability();
  try {
    return await body();
  } finally {
    for (const [name, value] of [
      ["FFMPEG_PATH", previous.ffmpeg],
      ["FFPROBE_PATH", previous.ffprobe],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    resetFfmpegAvailability();
  }
}

describe("checkAudioFile with ffmpeg", () => {
  it("has a fixture for every format of the issue", () => {
    expect(AUDIO_FIXTURE_LABELS.length).toBeGreaterThanOrEqual(20);
    expect(fixtures.map((fixture) => fixture.label)).toEqual(AUDIO_FIXTURE_LABELS);
  });

  it.each(AUDIO_FIXTURE_LABELS)("takes %s, measuring it within 1 s of ffprobe", async (label) => {
    const fixture = fixtures.find((candidate) => candidate.label === label)!;
    const check = await checkAudioFile(fixture.file);
    expect(check).toMatchObject({ ok: true, contentType: fixture.contentType, extension: fixture.extension });
    if (!check.ok) return;
    expect(Math.abs(check.durationMs - (await ffprobeDurationMs(fixture.file)))).toBeLessThan(1000);
    expect(Math.abs(check.durationMs - 2000)).toBeLessThan(150); // what was recorded
    expect(await servedAsRecorded(fixture.file)).toBe(fixture.servedAsRecorded);
  });

  it("measures a MediaRecorder WebM, whose header has no duration, by decoding it", async () => {
    const webm = path.resolve("tests/fixtures/recording-3s.webm"); // Chromium's MediaRecorder, 3 s
    const check = await checkAudioFile(webm);
    expect(check).toMatchObject({ ok: true, contentType: "audio/webm" });
    expect(check.ok && Math.abs(check.durationMs - 3000)).toBeLessThan(150);
  });

  it("refuses what is not a voice recording: a web page, a playlist, text, a film", async () => {
    const html = await fileWith("page.webm", "<!doctype html><html><body><script>alert(1)</script>".repeat(20));
    // A playlist would make ffmpeg fetch its addresses, were it ever opened as one.
    const playlist = await fileWith("list.m4a", "#EXTM3U\n#EXTINF:10,\nhttp://127.0.0.1:9/x.aac\n#EXT-X-ENDLIST\n");
    const text = await fileWith("notes.mp3", "just some words, not sound at all\n".repeat(50));
    const film = at("film.mp4");
    await run(ffmpegBinary(), [
      ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x64:rate=5"],
      ...["-f", "lavfi", "-i", "sine=duration=1", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", film],
    ]);
    for (const file of [html, playlist, text, film])
      expect(await checkAudioFile(file), file).toEqual({ ok: false, problem: "notAudio" });
  });

  it("refuses an empty file, a file over 25 MB, and one that holds no sound", async () => {
    expect(await checkAudioFile(await fileWith("empty.m4a", ""))).toEqual({ ok: false, problem: "empty" });
    const big = await fileWith("big.wav", silentWav(1));
    await truncate(big, 25 * 1024 * 1024 + 1);
    expect(await checkAudioFile(big)).toEqual({ ok: false, problem: "tooLarge" });
    expect(await checkAudioFile(await fileWith("header-only.amr", "#!AMR\n"))).toEqual({ ok: false, problem: "empty" });
  });

  it("refuses a recording over 5:00, however small", async () => {
    expect(await checkAudioFile(await fileWith("six.wav", silentWav(6 * 60)))).toEqual({
      ok: false,
      problem: "tooLong",
    });
    // Six minutes of AMR is well under 1 MB.
    expect(await checkAudioFile(await fileWith("six.amr", amrFile("nb", 6 * 60)))).toEqual({
      ok: false,
      problem: "tooLong",
    });
    // Up to 5:05 is fine (recorders stop a moment late).
    const fine = await checkAudioFile(await fileWith("five.wav", silentWav(5 * 60 + 3)));
    expect(fine).toMatchObject({ ok: true, durationMs: 303_000 });
  });

  it("calls a file with audio's first bytes but broken insides unreadable", async () => {
    const m4a = fixtures.find((fixture) => fixture.file.endsWith("aac.m4a"))!;
    const broken = (await readFile(m4a.file)).subarray(0, 40);
    expect(await checkAudioFile(await fileWith("broken.m4a", broken))).toEqual({ ok: false, problem: "unreadable" });
    const caf = await fileWith("broken.caf", Buffer.concat([Buffer.from("caff\0\x01\0\0"), Buffer.alloc(200, 7)]));
    expect(await checkAudioFile(caf)).toEqual({ ok: false, problem: "unreadable" });
  });

  it("stops decoding a file at its limit, and gives up after the time limit", async () => {
    const six = await fileWith("six-again.wav", silentWav(6 * 60));
    expect(await decodedDurationMs({ file: six, demuxer: "wav" }, { limitMs: 10_000 })).toBe(10_000);
    expect(await decodedDurationMs({ file: six, demuxer: "wav" }, { limitMs: 10_000, timeoutMs: 1 })).toBeNull();
    // Read only as the format its bytes named: a WAV opened as MP4 is not read at all.
    expect(await decodedDurationMs({ file: six, demuxer: "mov" }, { limitMs: 10_000 })).toBeNull();
  });

  it("reads a file whose name starts like an option or a protocol as the local file it is", async () => {
    const odd = at("-i http:x.wav");
    await copyFile(fixtures.find((fixture) => fixture.extension === "wav")!.file, odd);
    expect(await checkAudioFile(odd)).toMatchObject({ ok: true, contentType: "audio/wav" });
  });
});

describe("checkAudioFile without ffmpeg", () => {
  it.each(AUDIO_FIXTURE_LABELS)(
    "%s: taken if it is WebM, Ogg, M4A (AAC), MP3, WAV or FLAC, else 'cannot be taken yet'",
    async (label) => {
      const fixture = fixtures.find((candidate) => candidate.label === label)!;
      const probedMs = await ffprobeDurationMs(fixture.file);
      const check = await withoutFfmpeg(async () => {
        expect(await ffmpegAvailable()).toBe(false);
        return checkAudioFile(fixture.file);
      });
      if (!fixture.takenWithoutFfmpeg) {
        expect(check).toEqual({ ok: false, problem: "unsupported" });
        return;
      }
      expect(check).toMatchObject({ ok: true, contentType: fixture.contentType });
      if (check.ok) expect(Math.abs(check.durationMs - probedMs)).toBeLessThan(1000);
    },
  );

  it("still refuses what is not audio, empty, too large or too long", async () => {
    const html = await fileWith("page2.webm", "<html>not audio</html>".repeat(20));
    const six = await fileWith("six2.wav", silentWav(6 * 60));
    await withoutFfmpeg(async () => {
      expect(await checkAudioFile(html)).toEqual({ ok: false, problem: "notAudio" });
      expect(await checkAudioFile(await fileWith("empty2.webm", ""))).toEqual({ ok: false, problem: "empty" });
      expect(await checkAudioFile(six)).toEqual({ ok: false, problem: "tooLong" });
    });
  });

  it("counts ffmpeg as missing when only ffprobe is", async () => {
    const previous = process.env.FFPROBE_PATH;
    process.env.FFPROBE_PATH = at("no-ffprobe-here");
    resetFfmpegAvailability();
    try {
      expect(await ffmpegAvailable()).toBe(false);
    } finally {
      if (previous === undefined) delete process.env.FFPROBE_PATH;
      else process.env.FFPROBE_PATH = previous;
      resetFfmpegAvailability();
    }
    expect(await ffmpegAvailable()).toBe(true);
  });
});

describe("limitConcurrency", () => {
  it("runs at most `max` tasks at once, the others in their order as slots free up", async () => {
    const turn = limitConcurrency(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        finish[n] = () => resolve(n);
      });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const results = [1, 2, 3, 4].map((n) => turn(task(n)));
    await settle();
    expect(started).toEqual([1, 2]);
    finish[2]();
    await settle();
    expect(started).toEqual([1, 2, 3]);
    const late = turn(task(5)); // a newcomer waits behind 4
    finish[1]();
    await settle();
    expect(started).toEqual([1, 2, 3, 4]);
    finish[3]();
    finish[4]();
    await settle();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    finish[5]();
    expect(await Promise.all([...results, late])).toEqual([1, 2, 3, 4, 5]);
  });
});
