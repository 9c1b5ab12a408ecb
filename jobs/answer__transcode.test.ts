import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "~/context.server";
import {
  FfmpegError,
  ffmpegAvailable,
  ffmpegBinary,
  ffprobeBinary,
  probeDurationMs,
  resetFfmpegAvailability,
  transcodeToM4a,
} from "~/services/audio.server";
import { enqueueJob } from "~/services/jobs.server";
import { storageKeys } from "~/services/storage-keys";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createAnswer, createStoryteller, createUser } from "../tests/factories";
import { jobsFor, makeJobsDue, waitForJobsToSettle } from "../tests/jobs";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { PLAYABLE_CONTENT_TYPE } from "./answer__transcode";
import { createTaskList } from "./task-list";

const database = useTestDatabase();
let context: AppContext;
let work: string;
const samples: Record<"webm" | "ogg" | "m4a", Buffer> = {} as never;

beforeAll(async () => {
  if (!(await ffmpegAvailable())) {
    throw new Error(
      `ffmpeg is required for these tests (CI installs it): install it (apt-get install ffmpeg) or set FFMPEG_PATH; tried "${ffmpegBinary()}"`,
    );
  }
  context = makeTestContext(database);
  work = await mkdtemp(path.join(os.tmpdir(), "heirloom-transcode-test-"));
  // Three seconds of a 440 Hz tone, as browsers record it: Opus in WebM (Chrome) and in Ogg (Firefox), AAC in MP4 (Safari).
  const make = async (name: string, codec: string[]) => {
    const file = path.join(work, name);
    await promisify(execFile)(ffmpegBinary(), [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=3",
      ...codec,
      file,
    ]);
    return readFile(file);
  };
  samples.webm = await make("in.webm", ["-c:a", "libopus", "-b:a", "24k"]);
  samples.ogg = await make("in.ogg", ["-c:a", "libopus", "-b:a", "24k"]);
  samples.m4a = await make("in.m4a", ["-c:a", "aac", "-b:a", "64k"]);
});

// What a phone or recorder app may write into a recording: where, what and on which device, and a chapter.
const DEVICE_METADATA = { location: "+40.7128-074.0060/", title: "Kitchen at Grandma's", comment: "Pixel 8 Pro" };

/** A two-second recording carrying DEVICE_METADATA (as container tags in WebM, as Opus comments in Ogg). */
async function recordingWithMetadata(extension: "webm" | "ogg") {
  const chapters = path.join(work, "chapters.txt");
  await writeFile(chapters, ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=Front porch\n");
  const file = path.join(work, `tagged-${randomUUID()}.${extension}`);
  const tags = Object.entries(DEVICE_METADATA).flatMap(([key, value]) => ["-metadata", `${key}=${value}`]);
  await promisify(execFile)(ffmpegBinary(), [
    ...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-i", chapters],
    ...["-map", "0:a", "-map_chapters", "1", ...tags, "-c:a", "libopus", "-b:a", "24k", file],
  ]);
  return readFile(file);
}

/** Every tag (container and stream) and chapter ffprobe finds in a file. */
async function probeMetadata(bytes: Buffer) {
  const file = path.join(work, `probe-${randomUUID()}`);
  await writeFile(file, bytes);
  const { stdout } = await promisify(execFile)(ffprobeBinary(), [
    "-v",
    "error",
    "-show_entries",
    "format_tags:stream_tags",
    "-show_chapters",
    "-of",
    "json",
    file,
  ]);
  const probed = JSON.parse(stdout) as {
    format?: { tags?: Record<string, string> };
    streams?: { tags?: Record<string, string> }[];
    chapters?: unknown[];
  };
  const tags = Object.fromEntries(
    [probed.format?.tags ?? {}, ...(probed.streams ?? []).map((stream) => stream.tags ?? {})]
      .flatMap((entries) => Object.entries(entries))
      .map(([key, value]) => [key.toLowerCase(), value]),
  );
  return { tags, chapters: probed.chapters ?? [] };
}

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** An answer with `audio` as its recording, in storage under a name ending in `extension`. */
async function answerWithRecording(audio: Buffer, contentType: string, extension: string) {
  const owner = await createUser(database.db);
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
  const promptId = storyteller.prompts[0].id;
  const answer = await createAnswer(database.db, {
    storytellerId: storyteller.id,
    promptId,
    storage: context.storage,
    audio,
    contentType,
    storageKey: storageKeys.answerOriginal(promptId, extension),
  });
  return { id: answer.id, storageKey: answer.storage_key };
}

async function transcode(answerId: string) {
  await enqueueJob(database.db, "answer__transcode", { answerId });
  await runOnce({ pgPool: database.pool, taskList: createTaskList(context) });
  await waitForJobsToSettle(database.db);
}

const answerRow = (id: string) =>
  database.db
    .selectFrom("answers")
    .select(["storage_key", "content_type", "playable_storage_key", "playable_content_type"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

async function storedBytes(key: string) {
  const stored = await context.storage.get(key);
  return stored ? Buffer.from(await new Response(stored.body).arrayBuffer()) : null;
}

/** Runs `body` with os.tmpdir() pointing at a fresh folder, and returns what was left in it. */
async function leftoverTemporaryFiles(body: () => Promise<void>) {
  const folder = await mkdtemp(path.join(work, "tmp-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  try {
    await body();
  } finally {
    process.env.TMPDIR = previous;
    if (previous === undefined) delete process.env.TMPDIR;
  }
  return readdir(folder);
}

describe("the answer__transcode task", () => {
  it.each([
    ["WebM", "webm", "audio/webm;codecs=opus"],
    ["Ogg", "ogg", "audio/ogg"],
  ] as const)(
    "stores an AAC/M4A copy of an Opus answer in %s, keeping the original",
    async (_format, extension, contentType) => {
      const { id, storageKey } = await answerWithRecording(samples[extension], contentType, extension);
      const leftovers = await leftoverTemporaryFiles(() => transcode(id));

      const row = await answerRow(id);
      expect(row).toEqual({
        storage_key: storageKey,
        content_type: contentType,
        playable_storage_key: `answers/${id}/playable.m4a`,
        playable_content_type: "audio/mp4",
      });
      const playable = (await storedBytes(storageKeys.answerPlayable(id)))!;
      expect(playable.length).toBeGreaterThan(1000);
      expect(playable.subarray(4, 8).toString("latin1")).toBe("ftyp"); // an MP4 file starts with its ftyp box
      const copy = path.join(work, `${id}.m4a`);
      await writeFile(copy, playable);
      expect(await probeDurationMs(copy)).toBeGreaterThan(2850);
      expect(await probeDurationMs(copy)).toBeLessThan(3150);
      const { stdout } = await promisify(execFile)(ffprobeBinary(), [
        "-v",
        "error",
        "-show_entries",
        "stream=codec_name,channels",
        "-of",
        "csv=p=0",
        copy,
      ]);
      expect(stdout.trim()).toBe("aac,1");

      expect((await storedBytes(storageKey!))!.equals(samples[extension])).toBe(true);
      expect(leftovers).toEqual([]);
      expect(await jobsFor(database.db, "answer__transcode")).toEqual([]);
    },
  );

  it.each(["webm", "ogg"] as const)(
    "drops the %s recording's location, title, device and chapters from the playable copy, keeping the original as recorded",
    async (extension) => {
      const recording = await recordingWithMetadata(extension);
      const before = await probeMetadata(recording);
      expect(before.tags).toMatchObject(DEVICE_METADATA);
      expect(before.chapters).toHaveLength(1);

      const { id, storageKey } = await answerWithRecording(recording, `audio/${extension}`, extension);
      await transcode(id);

      const playable = (await storedBytes(storageKeys.answerPlayable(id)))!;
      const after = await probeMetadata(playable);
      for (const tag of ["location", "location-eng", "title", "comment", "encoder"])
        expect(after.tags).not.toHaveProperty(tag);
      expect(after.chapters).toEqual([]);
      for (const text of [...Object.values(DEVICE_METADATA), "Front porch", "Lavf", "Lavc"])
        expect(playable.includes(text)).toBe(false);
      const copy = path.join(work, `${id}.m4a`);
      await writeFile(copy, playable);
      expect(Math.abs((await probeDurationMs(copy))! - 2000)).toBeLessThan(150); // still the whole recording

      expect((await storedBytes(storageKey!))!.equals(recording)).toBe(true); // the family's original is untouched
    },
  );

  it("leaves an answer every browser plays already (AAC in MP4) alone", async () => {
    const { id, storageKey } = await answerWithRecording(samples.m4a, "audio/mp4", "m4a");
    await transcode(id);
    expect(await answerRow(id)).toMatchObject({
      storage_key: storageKey,
      playable_storage_key: null,
      playable_content_type: null,
    });
    expect(await context.storage.head(storageKeys.answerPlayable(id))).toBeNull();
    expect((await storedBytes(storageKey!))!.equals(samples.m4a)).toBe(true);
  });

  it("does nothing for an answer that has its playable copy, or one deleted", async () => {
    const { id } = await answerWithRecording(samples.webm, "audio/webm", "webm");
    await transcode(id);
    const first = (await storedBytes(storageKeys.answerPlayable(id)))!;
    await context.storage.put(
      storageKeys.answerPlayable(id),
      Buffer.from("sentinel: not rewritten"),
      PLAYABLE_CONTENT_TYPE,
    );
    await transcode(id);
    expect((await storedBytes(storageKeys.answerPlayable(id)))!.toString()).toBe("sentinel: not rewritten");
    expect(first.length).toBeGreaterThan(1000);

    const deleted = await answerWithRecording(samples.webm, "audio/webm", "webm");
    await database.db.deleteFrom("answers").where("id", "=", deleted.id).execute();
    await transcode(deleted.id);
    expect(await context.storage.head(storageKeys.answerPlayable(deleted.id))).toBeNull();
    expect(await jobsFor(database.db, "answer__transcode")).toEqual([]);
  });

  it("fails the attempt with ffmpeg's own words for a file it cannot read, leaving no copy and no temporary files", async () => {
    const { id } = await answerWithRecording(
      Buffer.from("this is not audio at all, just text named .webm"),
      "audio/webm",
      "webm",
    );
    allowConsoleErrors(5); // graphile-worker logs the failed attempt
    const leftovers = await leftoverTemporaryFiles(() => transcode(id));
    expect(await answerRow(id)).toMatchObject({ playable_storage_key: null });
    expect(await context.storage.head(storageKeys.answerPlayable(id))).toBeNull();
    expect(leftovers).toEqual([]);
    const [job] = (await jobsFor(database.db, "answer__transcode")).filter((queued) => queued.payload.answerId === id);
    expect(job.attempts).toBe(1);
    expect(job.last_error).toMatch(/ffmpeg exited with code \d+: .*Invalid data/s);
    await database.db.deleteFrom("answers").where("id", "=", id).execute();
    await makeJobsDue(database.db, "answer__transcode");
    await runOnce({ pgPool: database.pool, taskList: createTaskList(context) });
    await waitForJobsToSettle(database.db);
    expect(await jobsFor(database.db, "answer__transcode")).toEqual([]); // the retry found no answer: done
  });

  it("does nothing without ffmpeg: the original is served", async () => {
    const { id } = await answerWithRecording(samples.webm, "audio/webm", "webm");
    const previous = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = path.join(work, "no-such-ffmpeg");
    resetFfmpegAvailability();
    try {
      expect(await ffmpegAvailable()).toBe(false);
      await transcode(id);
    } finally {
      if (previous === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = previous;
      resetFfmpegAvailability();
    }
    expect(await answerRow(id)).toMatchObject({ playable_storage_key: null, playable_content_type: null });
    expect(await context.storage.head(storageKeys.answerPlayable(id))).toBeNull();
    expect(await jobsFor(database.db, "answer__transcode")).toEqual([]);
    expect(await ffmpegAvailable()).toBe(true);
  });
});

describe("the ffmpeg helpers", () => {
  it("transcodes to M4A and probes its duration", async () => {
    const output = path.join(work, "helper-out.m4a");
    await transcodeToM4a(path.join(work, "in.ogg"), output);
    expect((await readFile(output)).subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(Math.abs((await probeDurationMs(output))! - 3000)).toBeLessThan(150);
  });

  it("rejects with stderr, and gives up after the timeout", async () => {
    await expect(transcodeToM4a(path.join(work, "missing.webm"), path.join(work, "x.m4a"))).rejects.toThrow(
      /ffmpeg exited with code \d+: .*No such file or directory/s,
    );
    await expect(
      transcodeToM4a(path.join(work, "in.webm"), path.join(work, "y.m4a"), { timeoutMs: 1 }),
    ).rejects.toBeInstanceOf(FfmpegError);
    await expect(
      transcodeToM4a(path.join(work, "in.webm"), path.join(work, "y.m4a"), { timeoutMs: 1 }),
    ).rejects.toThrow(/timed out after 1 ms/);
  });

  it("probes null for a file that is not audio", async () => {
    const text = path.join(work, "text.txt");
    await writeFile(text, "hello");
    expect(await probeDurationMs(text)).toBeNull();
  });
});
