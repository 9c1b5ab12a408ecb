import { sql } from "kysely";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { enqueueJobs, sendQueueOf } from "~/services/jobs.server";
import { EMAIL_BATCH_SIZE, queueEmail } from "~/services/outbox.server";
import { deliveryMethods } from "~/utils/storyteller-choices";
import { type Db, type DbOrTx, inTransaction } from "../../db/client";
import type { CallConsent, Channel, DeliveryMethod, Frequency, Language, SmsConsent } from "../../db/schema";
import { canReceive } from "./delivery.server";
import { nextSendAt } from "./schedule";

type DueSchedule = {
  storyteller_id: string;
  first_prompt_date: string;
  frequency: Frequency;
  next_send_at: Date;
  empty_queue_notified_at: Date | null;
  time_zone: string;
  delivery_method: DeliveryMethod;
  sms_consent: SmsConsent;
  call_consent: CallConsent;
  unsubscribed_at: Date | null;
  email_undeliverable_at: Date | null;
  owner_id: string;
  nickname: string;
  owner_first_name: string;
  owner_email: string;
  owner_language: Language;
};

export type TickResult = { schedules: number; deliveries: number; emptyQueues: number };

/**
 * One scheduler pass: every schedule due by `now`, in batches. Each batch is one transaction that
 * locks its schedules (SKIP LOCKED, so concurrent runners take disjoint batches), writes a ledger
 * row for the head of each queue (unique per prompt and channel, so a repeat is a no-op), queues
 * the send jobs (one per batch of rows: sendDeliveryBatch) and moves the schedule to its next date after `now` (a missed date is not caught
 * up). Storytellers who cannot receive (unsubscribed, opted out, no consent yet) only move on.
 */
export async function runSchedulerTick(
  deps: { db: Db; config: Config },
  now = new Date(),
  batchSize = 1000,
): Promise<TickResult> {
  const total: TickResult = { schedules: 0, deliveries: 0, emptyQueues: 0 };
  for (;;) {
    const batch = await inTransaction(deps.db, (tx) => tickBatch(deps.config, tx, now, batchSize));
    total.schedules += batch.schedules;
    total.deliveries += batch.deliveries;
    total.emptyQueues += batch.emptyQueues;
    if (batch.schedules < batchSize) return total;
  }
}

/** The due-schedule query; the tick's test checks its plan uses schedules_due_idx. */
export const dueSchedulesQuery = (now: Date, limit: number) => sql<DueSchedule>`
  select sc.storyteller_id, sc.first_prompt_date, sc.frequency, sc.next_send_at, sc.empty_queue_notified_at,
         s.time_zone, s.delivery_method, s.sms_consent, s.call_consent, s.unsubscribed_at, s.email_undeliverable_at, s.owner_id, s.nickname,
         u.first_name as owner_first_name, u.email as owner_email, u.language as owner_language
  from schedules sc
  join storytellers s on s.id = sc.storyteller_id
  join users u on u.id = s.owner_id
  where sc.next_send_at <= ${now} and sc.next_send_at is not null and sc.paused_at is null
  order by sc.next_send_at
  limit ${limit}
  for update of sc skip locked
`;

async function tickBatch(config: Config, tx: DbOrTx, now: Date, limit: number): Promise<TickResult> {
  const due = (await dueSchedulesQuery(now, limit).execute(tx)).rows;
  if (!due.length) return { schedules: 0, deliveries: 0, emptyQueues: 0 };

  const reachable = due.filter(canReceive);
  const heads = reachable.length
    ? await tx
        .selectFrom("prompts")
        .select(["id", "storyteller_id"])
        .distinctOn("storyteller_id")
        .where(
          "storyteller_id",
          "in",
          reachable.map((d) => d.storyteller_id),
        )
        .where("sent_at", "is", null)
        .orderBy("storyteller_id")
        .orderBy("queue_position")
        .execute()
    : [];
  const headOf = new Map(heads.map((h) => [h.storyteller_id, h.id]));

  // A cancelled row (paused, opted out at send time) is reopened; a pending or sent one stays as it is.
  const withPrompt = reachable.filter((d) => headOf.has(d.storyteller_id));
  const deliveries = withPrompt.length
    ? await tx
        .insertInto("deliveries")
        .values(
          withPrompt.map((d) => ({
            prompt_id: headOf.get(d.storyteller_id)!,
            channel: d.delivery_method,
            scheduled_for: d.next_send_at,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(["prompt_id", "channel", "purpose"])
            .doUpdateSet({
              status: "pending",
              scheduled_for: sql`excluded.scheduled_for`,
              error: null,
              updated_at: now,
            })
            .where("deliveries.status", "=", "cancelled"),
        )
        .returning(["id", "channel"])
        .execute()
    : [];
  await enqueueJobs(tx, "delivery__send_batch", sendBatches(deliveries));

  const emptyNow = reachable.filter((d) => !headOf.has(d.storyteller_id) && !d.empty_queue_notified_at);
  for (const schedule of emptyNow) await notifyEmptyQueue(config, tx, schedule);

  const emptyIds = new Set(emptyNow.map((d) => d.storyteller_id));
  // Many schedules share a rule (first date, frequency, zone); time zone arithmetic is the costly part.
  const nextAts = new Map<string, Date>();
  const nextAt = (d: DueSchedule) => {
    const key = `${d.first_prompt_date} ${d.frequency} ${d.time_zone}`;
    let at = nextAts.get(key);
    if (!at)
      nextAts.set(
        key,
        (at = nextSendAt({ firstPromptDate: d.first_prompt_date, frequency: d.frequency, timeZone: d.time_zone }, now)),
      );
    return at;
  };
  await sql`
    update schedules sc
    set next_send_at = v.next_at,
        empty_queue_notified_at = case when v.notified then ${now}::timestamptz when v.has_prompt then null else sc.empty_queue_notified_at end,
        updated_at = ${now}
    from unnest(${due.map((d) => d.storyteller_id)}::uuid[], ${due.map(nextAt)}::timestamptz[],
                ${due.map((d) => emptyIds.has(d.storyteller_id))}::boolean[], ${due.map((d) => headOf.has(d.storyteller_id))}::boolean[])
         as v(storyteller_id, next_at, notified, has_prompt)
    where sc.storyteller_id = v.storyteller_id
  `.execute(tx);
  return { schedules: due.length, deliveries: deliveries.length, emptyQueues: emptyNow.length };
}

/**
 * Emails go out 500 to a job (one provider call); texts 50 to a job, in the number's queue; calls
 * 50 to a job, in the calls queue (placed one at a time); WhatsApp 50 to a job, in its queue.
 */
const BATCH_SIZE = { email: EMAIL_BATCH_SIZE, sms: 50, call: 50, whatsapp: 50 };

function sendBatches(deliveries: { id: string; channel: Channel }[]) {
  return deliveryMethods.flatMap((channel) => {
    const ids = deliveries.filter((d) => d.channel === channel).map((d) => d.id);
    const batches = [];
    for (let i = 0; i < ids.length; i += BATCH_SIZE[channel])
      batches.push({
        payload: { deliveryIds: ids.slice(i, i + BATCH_SIZE[channel]) },
        options: { queueName: sendQueueOf(channel) },
      });
    return batches;
  });
}

/** Nothing to send: the owner hears once (email and in-app) until a prompt goes out again. */
async function notifyEmptyQueue(config: Config, tx: DbOrTx, schedule: DueSchedule) {
  const t = await getServerT(schedule.owner_language, { config }, "delivery");
  await tx
    .insertInto("notifications")
    .values({ user_id: schedule.owner_id, type: "queue_empty", storyteller_id: schedule.storyteller_id })
    .execute();
  await queueEmail(tx, {
    to: schedule.owner_email,
    subject: t("emptyQueue.subject", { storyteller: schedule.nickname }),
    text: t("emptyQueue.text", {
      name: schedule.owner_first_name,
      storyteller: schedule.nickname,
      addUrl: `${config.APP_URL}/dashboard/recipient/${schedule.storyteller_id}/prompts/new`,
    }),
  });
}
