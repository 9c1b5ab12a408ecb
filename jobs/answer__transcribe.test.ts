import { runOnce } from "graphile-worker";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppContext } from "~/context.server";
import { enqueueJob } from "~/services/jobs.server";
import type { Language } from "../db/schema";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createAnswer, createStoryteller, createUser } from "../tests/factories";
import { sendJson, startFakeApi } from "../tests/fake-http-server";
import { jobsFor, makeJobsDue, waitForJobsToSettle, limitJobAttempts } from "../tests/jobs";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { createTaskList } from "./task-list";

const database = useTestDatabase();

/** What the fake service answers for the audio containing each marker, in order (the last repeats). */
const script = new Map<string, [number, unknown][]>();
let api: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  api = await startFakeApi((request, res) => {
    const marker = [...script.keys()].find((key) => request.body.includes(key));
    const replies = marker
      ? script.get(marker)!
      : [[500, { error: { message: "unscripted audio" } }] as [number, unknown]];
    const [status, body] = replies.length > 1 ? replies.shift()! : replies[0];
    sendJson(res, status, body);
  });
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  script.clear();
  api.requests.length = 0;
});

const withService = () =>
  makeTestContext(database, {
    TRANSCRIBE_URL: `${api.url}/v1`,
    TRANSCRIBE_API_KEY: "sk-test-key",
    TRANSCRIBE_MODEL: "whisper-1",
  });

/** An answer whose stored audio contains `marker` (ASCII, so the fake API's text body keeps it), queued for transcription. */
async function answerWithAudio(
  context: AppContext,
  marker: string,
  options: { language?: Language; maxAttempts?: number } = {},
) {
  const owner = await createUser(database.db);
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id, language: options.language ?? "en" });
  const { id } = await createAnswer(database.db, {
    storytellerId: storyteller.id,
    promptId: storyteller.prompts[0].id,
    storage: context.storage,
    audio: Buffer.from(`\x1aE\xdf\xa3 webm audio ${marker}`, "latin1"),
    contentType: "audio/webm;codecs=opus",
  });
  await enqueueJob(database.db, "answer__transcribe", { answerId: id });
  if (options.maxAttempts) await limitJobAttempts(database.db, "answer__transcribe", options.maxAttempts);
  return id;
}

async function runJobs(context: AppContext) {
  await runOnce({ pgPool: database.pool, taskList: createTaskList(context) });
  await waitForJobsToSettle(database.db);
}

const answerRow = (id: string) =>
  database.db
    .selectFrom("answers")
    .select(["transcript", "transcript_status"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const jobsOf = async (id: string) =>
  (await jobsFor(database.db, "answer__transcribe")).filter((job) => job.payload.answerId === id);

describe("the answer__transcribe task", () => {
  it("stores the transcript, sending the Storyteller's language as the hint", async () => {
    const context = withService();
    const id = await answerWithAudio(context, "marker-done", { language: "hi" });
    script.set("marker-done", [[200, { text: " Mera bachpan Lucknow mein beeta. " }]]);
    await runJobs(context);

    expect(await answerRow(id)).toEqual({ transcript: "Mera bachpan Lucknow mein beeta.", transcript_status: "done" });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0].url).toBe("/v1/audio/transcriptions");
    expect(api.requests[0].body).toContain('name="language"\r\n\r\nhi\r\n');
    expect(api.requests[0].body).toMatch(/name="file"; filename="answer\.webm"\r\nContent-Type: audio\/webm\r\n/);
    expect(await jobsOf(id)).toEqual([]);
  });

  it("waits for the playable copy of a recording the service does not take (AMR), then sends the copy", async () => {
    const context = withService();
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const { id } = await createAnswer(database.db, {
      storytellerId: storyteller.id,
      promptId: storyteller.prompts[0].id,
      storage: context.storage,
      audio: Buffer.from("#!AMR\n marker-amr-original", "latin1"),
      contentType: "audio/amr",
    });
    await enqueueJob(database.db, "answer__transcribe", { answerId: id });
    allowConsoleErrors(5); // graphile-worker logs the attempt that waited
    await runJobs(context);
    expect(api.requests).toEqual([]);
    expect(await answerRow(id)).toEqual({ transcript: null, transcript_status: "pending" });
    expect((await jobsOf(id))[0].last_error).toMatch(/waiting for the playable copy of a audio\/amr recording/);

    await context.storage.put(`answers/${id}/playable.m4a`, Buffer.from("....ftypM4A  marker-amr-copy"), "audio/mp4");
    await database.db
      .updateTable("answers")
      .set({ playable_storage_key: `answers/${id}/playable.m4a`, playable_content_type: "audio/mp4" })
      .where("id", "=", id)
      .execute();
    script.set("marker-amr-copy", [[200, { text: "From the AMR's copy." }]]);
    await makeJobsDue(database.db, "answer__transcribe");
    await runJobs(context);
    expect(await answerRow(id)).toEqual({ transcript: "From the AMR's copy.", transcript_status: "done" });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0].body).toContain('filename="answer.m4a"');
  });

  it("sends the playable copy when there is one", async () => {
    const context = withService();
    const id = await answerWithAudio(context, "marker-original");
    await context.storage.put(`answers/${id}/playable.m4a`, Buffer.from("....ftypM4A  marker-playable"), "audio/mp4");
    await database.db
      .updateTable("answers")
      .set({ playable_storage_key: `answers/${id}/playable.m4a`, playable_content_type: "audio/mp4" })
      .where("id", "=", id)
      .execute();
    script.set("marker-playable", [[200, { text: "From the copy." }]]);
    await runJobs(context);

    expect(await answerRow(id)).toEqual({ transcript: "From the copy.", transcript_status: "done" });
    expect(api.requests[0].body).toContain('filename="answer.m4a"');
    expect(api.requests[0].body).not.toContain("marker-original");
  });

  it("records none when the service hears no words", async () => {
    const context = withService();
    const id = await answerWithAudio(context, "marker-empty");
    script.set("marker-empty", [[200, { text: "   " }]]);
    await runJobs(context);
    expect(await answerRow(id)).toEqual({ transcript: null, transcript_status: "none" });
  });

  it("records failed at once when the service refuses the audio (no retry)", async () => {
    const context = withService();
    const id = await answerWithAudio(context, "marker-refused");
    script.set("marker-refused", [[400, { error: { message: "Invalid file format." } }]]);
    await runJobs(context);
    expect(await answerRow(id)).toEqual({ transcript: null, transcript_status: "failed" });
    expect(api.requests).toHaveLength(1);
    expect(await jobsOf(id)).toEqual([]);
  });

  it("retries a service that is down and stores the transcript once it answers", async () => {
    const context = withService();
    const id = await answerWithAudio(context, "marker-flaky");
    script.set("marker-flaky", [
      [503, { error: { message: "overloaded" } }],
      [503, { error: { message: "overloaded" } }],
      [200, { text: "Third time lucky." }],
    ]);
    allowConsoleErrors(10); // graphile-worker logs each failed attempt
    await runJobs(context);
    expect(await answerRow(id)).toEqual({ transcript: null, transcript_status: "pending" });
    const [job] = await jobsOf(id);
    expect(job).toMatchObject({ attempts: 1 });
    expect(job.last_error).toContain("transcription service answered 503: overloaded");

    await makeJobsDue(database.db, "answer__transcribe");
    await runJobs(context);
    expect((await jobsOf(id))[0]).toMatchObject({ attempts: 2 });

    await makeJobsDue(database.db, "answer__transcribe");
    await runJobs(context);
    expect(await answerRow(id)).toEqual({ transcript: "Third time lucky.", transcript_status: "done" });
    expect(api.requests).toHaveLength(3);
    expect(await jobsOf(id)).toEqual([]);
  });

  it("records failed when the last attempt still fails, and leaves the job visible", async () => {
    const context = withService();
    const id = await answerWithAudio(context, "marker-down", { maxAttempts: 2 });
    script.set("marker-down", [[503, { error: { message: "down" } }]]);
    allowConsoleErrors(10);
    await runJobs(context);
    expect((await answerRow(id)).transcript_status).toBe("pending");
    await makeJobsDue(database.db, "answer__transcribe");
    await runJobs(context);

    expect(await answerRow(id)).toEqual({ transcript: null, transcript_status: "failed" });
    const [job] = await jobsOf(id);
    expect(job).toMatchObject({ attempts: 2 });
    await makeJobsDue(database.db, "answer__transcribe");
    await runJobs(context); // attempts exhausted: graphile-worker does not run it again
    expect(api.requests).toHaveLength(2);
  });

  it("records failed when the recording is missing from storage", async () => {
    const context = withService();
    const id = await answerWithAudio(context, "marker-missing");
    const { storage_key } = await database.db
      .selectFrom("answers")
      .select("storage_key")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    await context.storage.delete(storage_key!);
    await runJobs(context);
    expect(await answerRow(id)).toEqual({ transcript: null, transcript_status: "failed" });
    expect(api.requests).toEqual([]);
    expect(await jobsOf(id)).toEqual([]);
  });

  it("waits (not failed, not empty) when there is no service and no speech engine here", async () => {
    const context = makeTestContext(database, { SPEECH_ENGINE: "/nonexistent/whisper-cli" });
    expect(context.config.TRANSCRIBE_URL).toBeUndefined();
    const id = await answerWithAudio(context, "marker-unconfigured");
    await runJobs(context);
    expect(await answerRow(id)).toEqual({ transcript: null, transcript_status: "waiting" });
    expect(api.requests).toEqual([]);
    expect(await jobsOf(id)).toEqual([]);
  });

  it("does nothing for a deleted answer, or one already transcribed", async () => {
    const context = withService();
    const deleted = await answerWithAudio(context, "marker-deleted");
    await database.db.deleteFrom("answers").where("id", "=", deleted).execute();
    const transcribed = await answerWithAudio(context, "marker-transcribed");
    await database.db
      .updateTable("answers")
      .set({ transcript: "Already here.", transcript_status: "done" })
      .where("id", "=", transcribed)
      .execute();
    await runJobs(context);

    expect(api.requests).toEqual([]);
    expect(await answerRow(transcribed)).toEqual({ transcript: "Already here.", transcript_status: "done" });
    expect(await jobsOf(deleted)).toEqual([]);
    expect(await jobsOf(transcribed)).toEqual([]);
  });
});
