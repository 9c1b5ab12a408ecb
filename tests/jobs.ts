import { sql } from "kysely";
import type { Db } from "../db/client";

export type QueuedJob = {
  id: string;
  key: string | null;
  payload: Record<string, unknown>;
  run_at: Date;
  attempts: number;
  last_error: string | null;
  locked_by: string | null;
};

/** graphile-worker's queued jobs for a task (its public view hides payloads). */
export async function jobsFor(db: Db, task: string): Promise<QueuedJob[]> {
  const result = await sql<QueuedJob>`
    select j.id::text, j.key, j.payload, j.run_at, j.attempts, j.last_error, j.locked_by
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier = ${task}
    order by j.id`.execute(db);
  return result.rows;
}

/** Lets due-later jobs run now (graphile-worker's retry backoff, deferred sends). */
export async function makeJobsDue(db: Db, task: string) {
  await sql`update graphile_worker._private_jobs j set run_at = now() from graphile_worker._private_tasks t where t.id = j.task_id and t.identifier = ${task}`.execute(
    db,
  );
}

/**
 * runOnce can resolve a moment before graphile-worker records the last job's result; tests that
 * look at the jobs table wait for every lock to be released first.
 */
export async function waitForJobsToSettle(db: Db, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{
      n: string;
    }>`select count(*) as n from graphile_worker._private_jobs where locked_at is not null`.execute(db);
    if (rows[0].n === "0") return;
    if (Date.now() > deadline) throw new Error("jobs still locked");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Fewer tries than the registry gives a task, so a test reaches its last attempt quickly. */
export async function limitJobAttempts(db: Db, task: string, maxAttempts: number) {
  await sql`update graphile_worker._private_jobs j set max_attempts = ${maxAttempts} from graphile_worker._private_tasks t where t.id = j.task_id and t.identifier = ${task}`.execute(
    db,
  );
}
