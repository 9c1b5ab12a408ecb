// The job on this machine's engine, with a fixed engine result injected at the engine boundary
// (createLocalSpeech's `run`): from there on the real path (job, models, database). The real engine
// runs in app/services/speech-engine.server.test.ts and jobs/answer__transcribe.engine.test.ts.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runOnce } from "graphile-worker";
import { describe, expect, it } from "vitest";
import type { AppContext } from "~/context.server";
import { queueWaitingTranscriptions } from "~/models/transcript.server";
import { enqueueJob } from "~/services/jobs.server";
import type { EngineResult, EngineRun } from "~/services/speech-engine.server";
import { SpeechEngineError, UnreadableAudioError } from "~/services/speech-engine.server";
import { createLocalSpeech } from "~/services/speech.server";
import { inTransaction } from "../db/client";
import type { Language, TranscriptSegment } from "../db/schema";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createAnswer, createStoryteller, createUser } from "../tests/factories";
import { jobsFor, limitJobAttempts, makeJobsDue, waitForJobsToSettle } from "../tests/jobs";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { answerTranscribe } from "./answer__transcribe";

const database = useTestDatabase();

/** A context whose model file exists (an empty stand-in: the engine is injected) and engine is injected. */
async function localContext(options: { modelInstalled?: boolean } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "heirloom-speech-models-"));
  if (options.modelInstalled ?? true) await writeFile(path.join(dir, "ggml-small-q5_1.bin"), "stand-in");
  return makeTestContext(database, {
    SPEECH_MODEL: "small-q5_1",
    SPEECH_MODEL_DIR: dir,
    SPEECH_MODEL_DOWNLOAD: "off",
  });
}

/** Runs queued transcriptions with `engine` standing in for whisper-cli; records each run. */
async function runJobs(context: AppContext, engine: (run: EngineRun) => Promise<EngineResult>) {
  const runs: EngineRun[] = [];
  const speech = createLocalSpeech(context.config, {
    run: (run) => {
      runs.push(run);
      return engine(run);
    },
  });
  const task = answerTranscribe(context, { transcriber: null, speech });
  await runOnce({
    pgPool: database.pool,
    taskList: { answer__transcribe: (payload, helpers) => task(payload as { answerId: string }, helpers) },
  });
  await waitForJobsToSettle(database.db);
  return runs;
}

async function queuedAnswer(context: AppContext, options: { language?: Language; durationMs?: number } = {}) {
  const owner = await createUser(database.db);
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id, language: options.language ?? "en" });
  const answer = await createAnswer(database.db, {
    storytellerId: storyteller.id,
    promptId: storyteller.prompts[0].id,
    storage: context.storage,
    audio: Buffer.from("RIFF....WAVE stand-in recording"),
    contentType: "audio/wav",
    durationMs: options.durationMs ?? 42_000,
  });
  await enqueueJob(database.db, "answer__transcribe", { answerId: answer.id });
  return answer.id;
}

const jobsOf = async (id: string) =>
  (await jobsFor(database.db, "answer__transcribe")).filter((job) => job.payload.answerId === id);

const words = (id: string) =>
  database.db
    .selectFrom("answers")
    .select([
      "transcript",
      "transcript_segments",
      "transcript_status",
      "machine_transcript",
      "machine_segments",
      "storage_key",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

const SEGMENTS: TranscriptSegment[] = [
  { start: 0, end: 4.2, text: "मेरा बचपन लखनऊ में बीता।" },
  { start: 4.2, end: 9.8, text: "हम गोमती के किनारे रहते थे।" },
];
const heard = (segments = SEGMENTS): EngineResult => ({
  text: segments.map((segment) => segment.text).join(" "),
  segments,
});

describe("answer__transcribe on this machine", () => {
  it("stores the words with their timings, in the Storyteller's language, one thread beside the web", async () => {
    const context = await localContext();
    const id = await queuedAnswer(context, { language: "hi", durationMs: 9_800 });
    const runs = await runJobs(context, async () => heard());

    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ language: "hi", threads: 1, durationMs: 9_800 });
    expect(runs[0].model).toBe(path.join(context.config.SPEECH_MODEL_DIR!, "ggml-small-q5_1.bin"));
    expect(await words(id)).toMatchObject({
      transcript: "मेरा बचपन लखनऊ में बीता। हम गोमती के किनारे रहते थे।",
      transcript_segments: SEGMENTS,
      transcript_status: "done",
      machine_transcript: "मेरा बचपन लखनऊ में बीता। हम गोमती के किनारे रहते थे।",
      machine_segments: SEGMENTS,
    });
    expect(await jobsOf(id)).toEqual([]);
  });

  it("never overwrites the family's correction: the new machine words are kept beside it", async () => {
    const context = await localContext();
    const id = await queuedAnswer(context);
    await runJobs(context, async () => heard());
    const corrected = [{ start: 0, end: 9.8, text: "Mera bachpan Lucknow mein beeta." }];
    await database.db
      .updateTable("answers")
      .set({
        transcript: corrected[0].text,
        transcript_segments: JSON.stringify(corrected),
        transcript_edited_at: new Date(),
        transcript_status: "pending",
      })
      .where("id", "=", id)
      .execute();
    await enqueueJob(database.db, "answer__transcribe", { answerId: id });
    const again = [{ start: 0, end: 9.8, text: "Something else entirely." }];
    await runJobs(context, async () => heard(again));

    expect(await words(id)).toMatchObject({
      transcript: "Mera bachpan Lucknow mein beeta.",
      transcript_segments: corrected,
      transcript_status: "done",
      machine_transcript: "Something else entirely.",
      machine_segments: again,
    });
  });

  it("records none when the engine hears no words", async () => {
    const context = await localContext();
    const id = await queuedAnswer(context);
    await runJobs(context, async () => ({ text: "", segments: [] }));
    expect(await words(id)).toMatchObject({ transcript: null, transcript_status: "none", machine_segments: null });
  });

  it("waits while the model is missing, and is queued again, oldest first, once it is installed", async () => {
    const context = await localContext({ modelInstalled: false });
    const first = await queuedAnswer(context);
    const second = await queuedAnswer(context);
    await database.db
      .updateTable("answers")
      .set({ created_at: new Date(Date.now() - 3_600_000) })
      .where("id", "=", second)
      .execute();
    const runs = await runJobs(context, async () => heard());
    expect(runs).toEqual([]);
    expect((await words(first)).transcript_status).toBe("waiting");
    expect((await words(second)).transcript_status).toBe("waiting");

    await mkdir(context.config.SPEECH_MODEL_DIR!, { recursive: true });
    await writeFile(path.join(context.config.SPEECH_MODEL_DIR!, "ggml-small-q5_1.bin"), "stand-in");
    expect(await inTransaction(database.db, (tx) => queueWaitingTranscriptions(tx))).toBe(2);
    expect(await runJobs(context, async () => heard())).toHaveLength(2);
    const done = await database.db
      .selectFrom("answers")
      .select(["id", "transcript_status"])
      .where("id", "in", [first, second])
      .orderBy("created_at")
      .execute();
    expect(done).toEqual([
      { id: second, transcript_status: "done" },
      { id: first, transcript_status: "done" },
    ]);
  });

  it("queues the oldest waiting answer's job first", async () => {
    const context = await localContext({ modelInstalled: false });
    const ids = [await queuedAnswer(context), await queuedAnswer(context), await queuedAnswer(context)];
    await runJobs(context, async () => heard());
    // The last recorded is made the oldest.
    await database.db
      .updateTable("answers")
      .set({ created_at: new Date(Date.now() - 86_400_000) })
      .where("id", "=", ids[2])
      .execute();
    await inTransaction(database.db, (tx) => queueWaitingTranscriptions(tx));
    await writeFile(path.join(context.config.SPEECH_MODEL_DIR!, "ggml-small-q5_1.bin"), "stand-in");
    const seen: string[] = [];
    const speech = createLocalSpeech(context.config, { run: async () => heard() });
    const task = answerTranscribe(context, { transcriber: null, speech });
    await runOnce({
      pgPool: database.pool,
      taskList: {
        answer__transcribe: (payload, helpers) => {
          seen.push((payload as { answerId: string }).answerId);
          return task(payload as { answerId: string }, helpers);
        },
      },
    });
    expect(seen[0]).toBe(ids[2]);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it("retries an engine that crashed, then fails on the last attempt", async () => {
    const context = await localContext();
    const id = await queuedAnswer(context);
    await limitJobAttempts(database.db, "answer__transcribe", 2);
    allowConsoleErrors(10); // graphile-worker logs each failed attempt
    await runJobs(context, async () => {
      throw new SpeechEngineError("whisper-cli was killed by SIGABRT");
    });
    expect((await words(id)).transcript_status).toBe("pending");
    await makeJobsDue(database.db, "answer__transcribe");
    await runJobs(context, async () => {
      throw new SpeechEngineError("whisper-cli was killed by SIGABRT");
    });
    expect((await words(id)).transcript_status).toBe("failed");
  });

  it("fails at once on audio ffmpeg cannot read", async () => {
    const context = await localContext();
    const id = await queuedAnswer(context);
    const runs = await runJobs(context, async () => {
      throw new UnreadableAudioError("ffmpeg exited with code 1: Invalid data found");
    });
    expect(runs).toHaveLength(1);
    expect((await words(id)).transcript_status).toBe("failed");
    expect(await jobsOf(id)).toEqual([]);
  });

  it("stops the engine and stores nothing when the answer is re-recorded while it listens", async () => {
    const context = await localContext();
    const id = await queuedAnswer(context);
    const runs = await runJobs(context, async (run) => {
      // The owner re-records: another storage key (its own job will transcribe it).
      await database.db
        .updateTable("answers")
        .set({ storage_key: `answers/${id}/again.wav` })
        .where("id", "=", id)
        .execute();
      await new Promise<void>((resolve) => run.signal!.addEventListener("abort", () => resolve(), { once: true }));
      throw new SpeechEngineError("whisper-cli was stopped (job cancelled or worker stopping)");
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].signal!.aborted).toBe(true);
    expect(await words(id)).toMatchObject({ transcript: null, transcript_status: "pending", machine_transcript: null });
    expect(await jobsOf(id)).toEqual([]);
  });
});
