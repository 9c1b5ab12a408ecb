import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createAnswer, createStoryteller, createUser } from "../tests/factories";
import { jobsFor } from "../tests/jobs";
import { startSpeechWorker } from "./speech-worker";

const database = useTestDatabase();

describe("the speech worker", () => {
  it("queues the waiting answers once engine and model are both installed, not before", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "heirloom-speech-worker-"));
    const engine = path.join(dir, "whisper-cli");
    await writeFile(engine, "stand-in");
    const context = makeTestContext(database, { SPEECH_ENGINE: engine, SPEECH_MODEL_DIR: dir });
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const { id } = await createAnswer(database.db, {
      storytellerId: storyteller.id,
      promptId: storyteller.prompts[0].id,
      storage: context.storage,
    });
    await database.db.updateTable("answers").set({ transcript_status: "waiting" }).where("id", "=", id).execute();

    const ran: string[] = [];
    const worker = await startSpeechWorker({
      pgPool: database.pool,
      db: database.db,
      config: context.config,
      // Records the job without running it: this test is about what gets queued.
      task: async (payload) => void ran.push((payload as { answerId: string }).answerId),
      pollInterval: 60_000,
    });
    try {
      expect(await worker.requeue()).toBe(0); // no model yet
      await writeFile(path.join(dir, "ggml-small-q5_1.bin"), "stand-in");
      expect(await worker.requeue()).toBe(1);
      const row = await database.db
        .selectFrom("answers")
        .select("transcript_status")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.transcript_status).toBe("pending");
      // The worker listens, so the job runs at once; its row goes only after the task has returned
      // (counting both before then saw it twice). Once the row is gone, it ran exactly once.
      await vi.waitFor(async () => {
        const queued = await jobsFor(database.db, "answer__transcribe");
        expect(queued.filter((job) => job.payload.answerId === id)).toEqual([]);
      }, 20_000);
      expect(ran).toEqual([id]);
      expect(await worker.requeue()).toBe(0); // nothing waits any more
    } finally {
      await worker.stop();
    }
  });
});
