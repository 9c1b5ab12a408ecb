import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";

/** Every task and its payload. Payloads carry ids only; the task loads what it needs. */
export type JobPayloads = {
  outbox__send: { messageId: string };
  maintenance__cleanup: Record<string, never>;
  scheduler__tick: Record<string, never>;
  delivery__send: { deliveryId: string; sendNow?: boolean };
  answer__transcode: { answerId: string };
  answer__transcribe: { answerId: string };
};
export type JobName = keyof JobPayloads;

export type EnqueueOptions = { jobKey?: string; runAt?: Date; maxAttempts?: number };

/**
 * Adds a graphile-worker job through the given connection, so called with a transaction the job
 * exists only if the transaction commits.
 */
export async function enqueueJob<K extends JobName>(
  db: DbOrTx,
  task: K,
  payload: JobPayloads[K],
  options: EnqueueOptions = {},
): Promise<void> {
  await sql`
    select graphile_worker.add_job(
      ${task}::text,
      ${JSON.stringify(payload)}::json,
      run_at := ${options.runAt ?? null}::timestamptz,
      max_attempts := ${options.maxAttempts ?? null}::int,
      job_key := ${options.jobKey ?? null}::text
    )
  `.execute(db);
}
