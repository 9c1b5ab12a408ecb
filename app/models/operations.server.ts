import { sql } from "kysely";
import { UPLOAD_LOCK_SPACE } from "~/services/uploads.server";
import type { DbOrTx } from "../../db/client";

// What an operator watches (server/metrics.ts turns these into /metrics): the job queue, the send
// ledger and the uploads being written. Whole-site figures, the same whichever process is asked.

export type TaskQueue = {
  task: string;
  /** Due and waiting for a worker. */
  waiting: number;
  /** Taken by a worker right now. */
  running: number;
  /** Due later (cron, retries backing off, deferred sends). */
  scheduled: number;
  /** Out of attempts: they stay until someone looks. */
  failed: number;
  /** How long the oldest waiting job has been due; 0 when none waits. */
  oldestWaitingSeconds: number;
};

/** graphile-worker's queue per task (every known task, also those with no job). */
export async function jobQueues(db: DbOrTx): Promise<TaskQueue[]> {
  const { rows } = await sql<{
    task: string;
    waiting: number;
    running: number;
    scheduled: number;
    failed: number;
    oldest_waiting_seconds: number;
  }>`
    select t.identifier as task,
      count(j.id) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now())::int as waiting,
      count(j.id) filter (where j.locked_at is not null)::int as running,
      count(j.id) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at > now())::int as scheduled,
      count(j.id) filter (where j.locked_at is null and j.attempts >= j.max_attempts)::int as failed,
      coalesce(extract(epoch from now() - min(j.run_at) filter (
        where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now())), 0)::float8 as oldest_waiting_seconds
    from graphile_worker._private_tasks t
    left join graphile_worker._private_jobs j on j.task_id = t.id
    group by t.identifier
    order by t.identifier`.execute(db);
  return rows.map(({ oldest_waiting_seconds, ...row }) => ({ ...row, oldestWaitingSeconds: oldest_waiting_seconds }));
}

/** The send ledger (`deliveries`) counted by status and channel. */
export async function deliveryCounts(db: DbOrTx): Promise<{ status: string; channel: string; count: number }[]> {
  return db
    .selectFrom("deliveries")
    .select(["status", "channel", (eb) => eb.fn.countAll<number>().as("count")])
    .groupBy(["status", "channel"])
    .orderBy("status")
    .orderBy("channel")
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, count: Number(row.count) })));
}

/** Uploads whose bytes some process is writing right now: their advisory locks are held. */
export async function uploadsInProgress(db: DbOrTx): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*)::int as count from pg_locks
    where locktype = 'advisory' and classid = ${UPLOAD_LOCK_SPACE}::oid and objsubid = 2 and granted
      and database = (select oid from pg_database where datname = current_database())`.execute(db);
  return rows[0].count;
}
