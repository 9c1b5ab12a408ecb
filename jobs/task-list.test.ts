import { runOnce } from "graphile-worker";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { enqueueJob, jobDefinitions } from "~/services/jobs.server";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { jobsFor, waitForJobsToSettle } from "../tests/jobs";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { createTaskList } from "./task-list";

const database = useTestDatabase();

it("runs a task for every job in the registry, and nothing else", () => {
  expect(Object.keys(createTaskList(makeTestContext(database))).sort()).toEqual(Object.keys(jobDefinitions).sort());
});

it("queues one job per thing, with the registry's key and tries", async () => {
  const answerId = "7f0c4c1e-5a7b-4c51-9a86-1f6f5f7b0a11";
  await enqueueJob(database.db, "answer__transcribe", { answerId });
  await enqueueJob(database.db, "answer__transcribe", { answerId });
  const jobs = await jobsFor(database.db, "answer__transcribe");
  expect(jobs).toHaveLength(1);
  expect(jobs[0].key).toBe(`transcribe:${answerId}`);
  const { rows } = await sql<{ max_attempts: number }>`select max_attempts from graphile_worker._private_jobs`.execute(
    database.db,
  );
  expect(rows[0].max_attempts).toBe(jobDefinitions.answer__transcribe.maxAttempts);
});

it("refuses to queue a payload its schema rejects, and fails a malformed job without running the task", async () => {
  await expect(enqueueJob(database.db, "outbox__send", { messageId: "not-a-uuid" })).rejects.toThrow();
  // Something else (an older release, a hand-written row) queued a payload without the id.
  await sql`select graphile_worker.add_job('outbox__send', '{"id": 1}'::json, max_attempts := 1)`.execute(database.db);
  allowConsoleErrors(5);
  await runOnce({ pgPool: database.pool, taskList: createTaskList(makeTestContext(database)) });
  await waitForJobsToSettle(database.db);
  const [job] = await jobsFor(database.db, "outbox__send");
  expect(job.attempts).toBe(1);
  expect(job.last_error).toMatch(/messageId/);
});
