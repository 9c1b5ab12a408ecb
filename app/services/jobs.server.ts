import type { JobHelpers } from "graphile-worker";
import { sql } from "kysely";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import type { Channel } from "../../db/schema";

type JobDefinition<P extends z.ZodType> = {
  /** Ids only: the task loads what it needs when it runs. */
  payload: P;
  /** Tries before graphile-worker gives up; tasks read `helpers.job.max_attempts` for "last try". */
  maxAttempts: number;
  /** One queued job per thing: adding it again replaces the waiting one instead of doubling it. */
  jobKey?: (payload: z.infer<P>) => string;
};

const define = <P extends z.ZodType>(definition: JobDefinition<P>) => definition;
const ids = <K extends string>(key: K) => z.object({ [key]: z.uuid() } as Record<K, z.ZodUUID>);

/**
 * Every background task, in one place. Models enqueue through `enqueueJob`/`enqueueJobs`, never by
 * naming SQL or keys themselves; `jobs/task-list.ts` binds each name to its task and checks payloads
 * against these schemas before the task runs.
 */
export const jobDefinitions = {
  outbox__send: define({ payload: ids("messageId"), maxAttempts: 10 }),
  delivery__send: define({
    payload: z.object({ deliveryId: z.uuid(), sendNow: z.boolean().optional() }),
    // Transient provider failures are retried with graphile-worker's backoff.
    maxAttempts: 8,
    jobKey: ({ deliveryId }) => `delivery:${deliveryId}`,
  }),
  // The scheduler's sends: one job per batch of ledger rows of one channel (decision 025).
  delivery__send_batch: define({
    payload: z.object({ deliveryIds: z.array(z.uuid()).min(1).max(500) }),
    maxAttempts: 8,
  }),
  // A file ffmpeg cannot read fails every time: few tries.
  answer__transcode: define({
    payload: ids("answerId"),
    maxAttempts: 3,
    jobKey: ({ answerId }) => `transcode:${answerId}`,
  }),
  // Transient failures retry, then the answer shows "No transcription found".
  answer__transcribe: define({
    payload: ids("answerId"),
    maxAttempts: 5,
    jobKey: ({ answerId }) => `transcribe:${answerId}`,
  }),
  // Keeping it forever (decision 023): one try each; a failure is shown on the page, and asking again is one click.
  keepsake__export: define({
    payload: ids("keepsakeId"),
    maxAttempts: 1,
    jobKey: ({ keepsakeId }) => `keepsake:${keepsakeId}`,
  }),
  keepsake__book: define({
    payload: ids("keepsakeId"),
    maxAttempts: 1,
    jobKey: ({ keepsakeId }) => `keepsake:${keepsakeId}`,
  }),
  // A phone answer: fetch the recording from Twilio into an answer, then delete it there. Twilio keeps
  // it until then, so failed fetches retry for hours (backoff) without losing anything.
  phone__recording: define({
    payload: ids("recordingId"),
    maxAttempts: 12,
    jobKey: ({ recordingId }) => `phone-recording:${recordingId}`,
  }),
  // The Storyteller's one message a day about her family's hearts and notes (decision 048).
  reactions__digest: define({
    payload: ids("storytellerId"),
    maxAttempts: 3,
    jobKey: ({ storytellerId }) => `reactions-digest:${storytellerId}`,
  }),
  // A WhatsApp voice note (decision 041): fetched from Twilio into an answer, then deleted there.
  // Twilio keeps the media until then, so failed fetches retry for hours without losing anything.
  whatsapp__voice_note: define({
    payload: ids("noteId"),
    maxAttempts: 12,
    jobKey: ({ noteId }) => `whatsapp-note:${noteId}`,
  }),
  // Cron tasks (jobs/crontab.ts): a failed tick is simply the next minute's work.
  scheduler__tick: define({ payload: z.object({}), maxAttempts: 1 }),
  maintenance__cleanup: define({ payload: z.object({}), maxAttempts: 3 }),
};

export type JobName = keyof typeof jobDefinitions;

/**
 * graphile-worker runs the jobs of one queue_name one at a time. Every text leaves from the one
 * number an install has (TWILIO_FROM_NUMBER), so every job that texts is in this queue: Twilio's
 * per-number rate is never exceeded by jobs racing each other.
 */
export const TEXTS_QUEUE = "texts";
/** Calls (call-out, decision 027) leave from the one voice number too: one at a time, in their own queue. */
export const CALLS_QUEUE = "calls";

/** WhatsApp messages leave from the one WhatsApp sender: one at a time, in their own queue. */
export const WHATSAPP_QUEUE = "whatsapp";

/** The queue a send on `channel` runs in (emails: none, they run side by side). */
export const sendQueueOf = (channel: Channel) =>
  channel === "sms"
    ? TEXTS_QUEUE
    : channel === "call"
      ? CALLS_QUEUE
      : channel === "whatsapp"
        ? WHATSAPP_QUEUE
        : undefined;

/** Where and when a job runs: the texts queue for anything that texts; a time for a deferred send. */
export type JobOptions = { runAt?: Date; queueName?: string };
export type JobPayload<K extends JobName> = z.infer<(typeof jobDefinitions)[K]["payload"]>;

function specOf<K extends JobName>(name: K, payload: JobPayload<K>) {
  const definition = jobDefinitions[name] as unknown as JobDefinition<z.ZodType<JobPayload<K>>>;
  return {
    payload: definition.payload.parse(payload),
    jobKey: definition.jobKey?.(payload) ?? null,
    maxAttempts: definition.maxAttempts,
  };
}

/**
 * Adds a job through the given connection: called with a transaction, the job exists only if the
 * transaction commits.
 */
export async function enqueueJob<K extends JobName>(
  db: DbOrTx,
  name: K,
  payload: JobPayload<K>,
  options: JobOptions = {},
) {
  const spec = specOf(name, payload);
  await sql`
    select graphile_worker.add_job(
      ${name}::text,
      ${JSON.stringify(spec.payload)}::json,
      queue_name := ${options.queueName ?? null}::text,
      run_at := ${options.runAt ?? null}::timestamptz,
      max_attempts := ${spec.maxAttempts}::int,
      job_key := ${spec.jobKey}::text
    )
  `.execute(db);
}

/** Many jobs of one task in one statement (the scheduler's batches), each with its own options. */
export async function enqueueJobs<K extends JobName>(
  db: DbOrTx,
  name: K,
  jobs: { payload: JobPayload<K>; options?: JobOptions }[],
) {
  if (!jobs.length) return;
  const specs = jobs.map(({ payload, options = {} }) => {
    const spec = specOf(name, payload);
    return {
      payload: spec.payload,
      job_key: spec.jobKey,
      queue_name: options.queueName ?? null,
      run_at: options.runAt?.toISOString() ?? null,
    };
  });
  await sql`
    select count(*) from graphile_worker.add_jobs(
      array(
        select row(${name}::text, s.payload, s.queue_name, s.run_at, ${jobDefinitions[name].maxAttempts}::int, s.job_key, null, null)::graphile_worker.job_spec
        from json_to_recordset(${JSON.stringify(specs)}::json)
          as s(payload json, job_key text, queue_name text, run_at timestamptz)
      )
    )
  `.execute(db);
}

/** A task's body: its payload already checked against the registry's schema (jobs/task-list.ts). */
export type JobTask<K extends JobName> = (payload: JobPayload<K>, helpers: JobHelpers) => Promise<void>;
