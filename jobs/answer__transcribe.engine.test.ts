// The real engine: whisper-cli built by `npm run speech:install` (npm test builds it first) with a
// generated model of tiny's real shapes and random weights. It hears nonsense, but loads, decodes,
// writes segments, is killed on abort and at its time limit, and a broken model ends only the child.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, open, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { runOnce } from "graphile-worker";
import { beforeAll, describe, expect, it } from "vitest";
import { ffmpegBinary } from "~/services/audio.server";
import { enqueueJob } from "~/services/jobs.server";
import { runSpeechEngine, SpeechEngineError, speechEnginePath } from "~/services/speech-engine.server";
import { buildEngine, canBuildEngine } from "../scripts/speech-engine-build";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createAnswer, createStoryteller, createUser } from "../tests/factories";
import { waitForJobsToSettle } from "../tests/jobs";
import { generatedModel } from "../tests/support/whisper-model";
import { createTaskList } from "./task-list";

const database = useTestDatabase();
const buildable = speechEnginePath({}) !== null || canBuildEngine();
if (!buildable) console.warn("SKIPPED: the real speech engine tests need cmake and g++ (apt-get install cmake g++)");

let engine: string;
let model: string;
let recording: string;
const SECONDS = 6;

beforeAll(async () => {
  if (!buildable) return;
  engine = speechEnginePath({}) ?? path.join(buildEngine("native", { quiet: true }).dir, "bin", "whisper-cli");
  model = generatedModel("tiny");
  const dir = await mkdtemp(path.join(os.tmpdir(), "heirloom-engine-"));
  recording = path.join(dir, "answer.m4a");
  // A voice-like sweep, stored as the playable copies are (AAC in M4A).
  await promisify(execFile)(ffmpegBinary(), [
    ...["-hide_banner", "-loglevel", "error", "-f", "lavfi"],
    ...["-i", `sine=frequency=220:duration=${SECONDS},vibrato=f=5:d=0.5`, "-c:a", "aac", "-y", recording],
  ]);
}, 900_000);

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!buildable)("the speech engine (whisper-cli in a child process)", () => {
  it("transcribes a recording into timed segments whose texts make the transcript", async () => {
    const result = await runSpeechEngine({
      engine,
      model,
      input: recording,
      language: "hi",
      threads: 1,
      durationMs: SECONDS * 1000,
      extraArgs: ["-nf"], // random weights: no temperature fallback, or it decodes six times
    });
    expect(result.text).toBe(result.segments.map((segment) => segment.text).join(" "));
    for (const segment of result.segments) {
      expect(segment.text.trim()).toBe(segment.text);
      expect(segment.text.length).toBeGreaterThan(0);
      expect(segment.end).toBeGreaterThanOrEqual(segment.start);
      expect(segment.start).toBeGreaterThanOrEqual(0);
    }
  });

  it("kills the child when the job is aborted", async () => {
    const controller = new AbortController();
    let pid = 0;
    const running = runSpeechEngine({
      engine,
      model,
      input: recording,
      language: "en",
      threads: 1,
      durationMs: SECONDS * 1000,
      signal: controller.signal,
      onSpawn: (child) => {
        pid = child;
        controller.abort();
      },
    });
    await expect(running).rejects.toThrow(/whisper-cli was stopped/);
    expect(pid).toBeGreaterThan(0);
    expect(pidAlive(pid)).toBe(false);
  });

  it("kills a run that passes its time limit", async () => {
    let pid = 0;
    await expect(
      runSpeechEngine({
        engine,
        model,
        input: recording,
        language: "en",
        threads: 1,
        durationMs: SECONDS * 1000,
        timeLimitMs: 400,
        onSpawn: (child) => (pid = child),
      }),
    ).rejects.toThrow(/ran past its time limit and was killed/);
    if (pid) expect(pidAlive(pid)).toBe(false);
  });

  it("a broken model ends the child with an error, not this process", async () => {
    const broken = path.join(await mkdtemp(path.join(os.tmpdir(), "heirloom-broken-model-")), "broken.bin");
    await copyFile(model, broken);
    const file = await open(broken, "r+");
    await file.truncate(5_000_000); // cut in the middle of the tensors
    await file.close();
    await expect(
      runSpeechEngine({ engine, model: broken, input: recording, language: "en", threads: 1, durationMs: 6000 }),
    ).rejects.toThrow(SpeechEngineError);
  });

  it("the job stores what the engine heard", async () => {
    const context = makeTestContext(database, { SPEECH_ENGINE: engine, SPEECH_MODEL: model });
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, language: "en" });
    const { id } = await createAnswer(database.db, {
      storytellerId: storyteller.id,
      promptId: storyteller.prompts[0].id,
      storage: context.storage,
      audio: await readFile(recording),
      contentType: "audio/mp4",
      durationMs: SECONDS * 1000,
    });
    await enqueueJob(database.db, "answer__transcribe", { answerId: id });
    await runOnce({ pgPool: database.pool, taskList: createTaskList(context) });
    await waitForJobsToSettle(database.db);
    const row = await database.db
      .selectFrom("answers")
      .select(["transcript", "transcript_segments", "transcript_status", "machine_transcript", "machine_segments"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(["done", "none"]).toContain(row.transcript_status);
    expect(row.machine_transcript).toBe(row.transcript);
    expect(row.machine_segments).toEqual(row.transcript_segments);
    if (row.transcript_status === "done")
      expect(row.transcript).toBe(row.transcript_segments!.map((segment) => segment.text).join(" "));
  });
});
