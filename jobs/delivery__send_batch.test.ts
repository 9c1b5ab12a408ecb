import { runOnce } from "graphile-worker";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { queueSendNow, sendDelivery, sendDeliveryBatch } from "~/models/delivery.server";
import { runSchedulerTick } from "~/models/scheduler.server";
import { handleInboundSms, requestSmsConsent } from "~/models/sms-consent.server";
import type { MailMessage, MailService } from "~/services/mail.server";
import type { SmsMessage, SmsService } from "~/services/sms.server";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createStoryteller, createStorytellers, createUser } from "../tests/factories";
import { jobsFor, makeJobsDue, waitForJobsToSettle } from "../tests/jobs";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { createTaskList } from "./task-list";

const database = useTestDatabase();
beforeEach(async () => {
  await sql`truncate users, outbox_messages, sms_consents cascade`.execute(database.db);
  await sql`delete from graphile_worker._private_jobs`.execute(database.db);
});

// 10:00 in New York on 2026-04-01; the batch runs 40 s later.
const due = new Date("2026-04-01T14:00:00Z");
const now = new Date("2026-04-01T14:00:40Z");

/** A mail provider with a batch endpoint that records every call. */
function batchMail(options: { hold?: Promise<void> } = {}) {
  const accepted: MailMessage[] = [];
  const calls: { kind: "batch" | "single"; count: number }[] = [];
  const mail: MailService = {
    name: "postmark",
    async send(message) {
      calls.push({ kind: "single", count: 1 });
      accepted.push(message);
      return `pm-${message.id}`;
    },
    async sendBatch(messages) {
      calls.push({ kind: "batch", count: messages.length });
      await options.hold;
      accepted.push(...messages);
      return messages.map((m) => ({ providerMessageId: `pm-${m.id}` }));
    },
    async findSent(message) {
      return accepted.some((m) => m.id === message.id) ? `pm-${message.id}` : null;
    },
  };
  return { mail, accepted, calls };
}

function recordingSms(onSend: (message: SmsMessage) => Promise<void> = async () => {}) {
  const accepted: SmsMessage[] = [];
  const sms: SmsService = {
    name: "twilio",
    async send(message) {
      await onSend(message);
      accepted.push(message);
      return `SM${accepted.length}`;
    },
    async findSent(message) {
      return accepted.some((m) => m.id === message.id) ? "SM-found" : null;
    },
  };
  return { sms, accepted };
}

const batchJobs = async () =>
  (
    await sql<{ payload: { deliveryIds: string[] }; queue_name: string | null }>`
      select j.payload, q.queue_name
      from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
      left join graphile_worker._private_job_queues q on q.id = j.job_queue_id
      where t.identifier = 'delivery__send_batch' order by j.id`.execute(database.db)
  ).rows;

describe("the scheduler's batch send job", () => {
  it("sends a tick's emails in one provider call per batch and its texts one by one in the texts queue, each prompt once", async () => {
    const owner = await createUser(database.db);
    await createStorytellers(database.db, 7, { ownerId: owner.id, nextSendAt: due });
    for (const phone of ["+15555550101", "+15555550102"])
      await createStoryteller(database.db, { ownerId: owner.id, deliveryMethod: "sms", phone, nextSendAt: due });

    const { mail, calls, accepted } = batchMail();
    const texts = recordingSms();
    const deps = { ...makeTestContext(database), mail, sms: texts.sms };
    expect(await runSchedulerTick(deps, now)).toMatchObject({ deliveries: 9 });

    const jobs = await batchJobs();
    expect(jobs.map((j) => [j.payload.deliveryIds.length, j.queue_name])).toEqual([
      [7, null],
      [2, "texts"],
    ]);
    for (const job of jobs)
      await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: `job-${job.queue_name}` });
    // Again, as a retried job would: nothing goes twice.
    for (const job of jobs)
      expect(
        await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: `job-${job.queue_name}` }),
      ).toMatchObject({ sent: 0, "nothing-to-do": job.payload.deliveryIds.length });

    expect(calls).toEqual([{ kind: "batch", count: 7 }]);
    expect(accepted).toHaveLength(7);
    expect(texts.accepted.map((m) => m.to).sort()).toEqual(["+15555550101", "+15555550102"]);
    const rows = await sql<{ status: string; sent: boolean; outbox: string; provider_message_id: string }>`
      select d.status, p.sent_at is not null as sent, o.status as outbox, d.provider_message_id
      from deliveries d join prompts p on p.id = d.prompt_id join outbox_messages o on o.id = d.outbox_message_id`.execute(
      database.db,
    );
    expect(rows.rows).toHaveLength(9);
    for (const row of rows.rows) expect(row).toMatchObject({ status: "sent", sent: true, outbox: "sent" });
    expect(new Set(rows.rows.map((r) => r.provider_message_id)).size).toBe(9);
    const notified = await database.db.selectFrom("notifications").select("type").where("type", "=", "new").execute();
    expect(notified).toHaveLength(9);
  });

  it("re-checks every row under its lock: unsubscribed, paused and already-sent rows are cancelled, the rest sent", async () => {
    const owner = await createUser(database.db);
    const storytellers = await createStorytellers(database.db, 4, { ownerId: owner.id, nextSendAt: due });
    const { mail, calls } = batchMail();
    const deps = { ...makeTestContext(database), mail };
    await runSchedulerTick(deps, now);
    // Between the tick and the job: one unsubscribes, one is paused.
    await database.db
      .updateTable("storytellers")
      .set({ unsubscribed_at: now })
      .where("id", "=", storytellers[0].id)
      .execute();
    await database.db
      .updateTable("schedules")
      .set({ paused_at: now })
      .where("storyteller_id", "=", storytellers[1].id)
      .execute();
    const [job] = await batchJobs();
    expect(await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).toMatchObject({
      sent: 2,
      cancelled: 2,
    });
    expect(calls).toEqual([{ kind: "batch", count: 2 }]);
    const cancelled = await database.db
      .selectFrom("deliveries")
      .select("error")
      .where("status", "=", "cancelled")
      .orderBy("error")
      .execute();
    expect(cancelled.map((d) => d.error)).toEqual(["paused", "unsubscribed"]);
  });

  it("marks a message the provider refused failed, and retries a batch the provider did not answer without sending twice", async () => {
    const owner = await createUser(database.db);
    await createStorytellers(database.db, 3, { ownerId: owner.id, nextSendAt: due });
    const accepted: string[] = [];
    let down = true;
    const mail: MailService = {
      name: "postmark",
      async send(message) {
        accepted.push(message.id);
        return `pm-${message.id}`;
      },
      async sendBatch(messages) {
        if (down) throw new Error("Postmark 503");
        return messages.map((m, i) => {
          if (i === 0)
            return {
              error: "Postmark 406: You tried to send to a recipient that has been marked as inactive.",
              permanent: true,
            };
          accepted.push(m.id);
          return { providerMessageId: `pm-${m.id}` };
        });
      },
      async findSent(message) {
        return accepted.includes(message.id) ? `pm-${message.id}` : null;
      },
    };
    const deps = { ...makeTestContext(database), mail };
    await runSchedulerTick(deps, now);
    const [job] = await batchJobs();
    await expect(sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).rejects.toThrow(
      "Postmark 503",
    );
    const waiting = await database.db.selectFrom("outbox_messages").select(["status", "error"]).execute();
    expect(waiting).toEqual(Array(3).fill({ status: "sending", error: "Postmark 503" }));

    // The retry asks the provider about each message first, then sends what it does not know, once.
    down = false;
    expect(await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).toMatchObject({
      sent: 3,
    });
    expect(accepted).toHaveLength(3);
    expect(new Set(accepted).size).toBe(3);

    // A refusal inside a batch answer fails that message alone, with the provider's reason.
    await sql`truncate users, outbox_messages cascade`.execute(database.db);
    await sql`delete from graphile_worker._private_jobs`.execute(database.db);
    const again = await createUser(database.db);
    await createStorytellers(database.db, 3, { ownerId: again.id, nextSendAt: due });
    await runSchedulerTick(deps, now);
    const [second] = await batchJobs();
    expect(await sendDeliveryBatch(deps, second.payload.deliveryIds, { now, claimant: "job-2" })).toMatchObject({
      sent: 2,
      failed: 1,
    });
    const failed = await database.db
      .selectFrom("deliveries")
      .select(["status", "error"])
      .where("status", "=", "failed")
      .execute();
    expect(failed).toEqual([{ status: "failed", error: expect.stringContaining("Postmark 406") }]);
  });

  it("leaves a message another job is sending alone: Send now during a batch sends nothing twice", async () => {
    const owner = await createUser(database.db);
    const [storyteller] = await createStorytellers(database.db, 1, { ownerId: owner.id, nextSendAt: due });
    let release: () => void = () => {};
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { mail, accepted, calls } = batchMail({ hold });
    const deps = { ...makeTestContext(database), mail };
    await runSchedulerTick(deps, now);
    const [job] = await batchJobs();
    const batch = sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-batch" });
    // The batch has claimed the message and waits on the provider.
    while (!calls.length) await new Promise((resolve) => setTimeout(resolve, 10));

    const [prompt] = await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", storyteller.id)
      .execute();
    expect(await queueSendNow(database.db, prompt.id, now)).toEqual({ outcome: "already-sent" });
    // A job of its own for the same row (a retry, a Send now that raced the tick) finds it claimed.
    expect(await sendDelivery(deps, job.payload.deliveryIds[0], { now, claimant: "job-other" })).toBe("nothing-to-do");
    release();
    await batch;
    expect(accepted).toHaveLength(1);
    expect(calls).toEqual([{ kind: "batch", count: 1 }]);
  });
});

describe("several send batches at once", () => {
  it("over shared ledger rows, past the six-digit codes: no deadlock, each prompt once, every code its own", async () => {
    const owner = await createUser(database.db);
    await createStorytellers(database.db, 48, { ownerId: owner.id, nextSendAt: due });
    const { mail, accepted } = batchMail();
    const deps = { ...makeTestContext(database), mail };
    await runSchedulerTick(deps, now);
    const [job] = await batchJobs();
    const ids = job.payload.deliveryIds;
    // Six batches, each two thirds of the rows, half of them in reverse: every row in four batches.
    const batches = Array.from({ length: 6 }, (_, b) => {
      const some = ids.filter((_, i) => i % 3 !== b % 3);
      return b % 2 ? some.reverse() : some;
    });
    const results = await Promise.all(
      batches.map((batch, b) => sendDeliveryBatch(deps, batch, { now, claimant: `job-${b}` })),
    );
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(48);
    expect(accepted).toHaveLength(48);
    expect(new Set(accepted.map((m) => m.to)).size).toBe(48);
    const codes = accepted.map((m) => /and enter ([\d ]+) to answer by phone/.exec(m.text)![1]);
    expect(new Set(codes).size).toBe(48);
    const lengths = await sql<{ length: number; n: number }>`
      select length, count(*)::int as n from answer_codes group by length order by length`.execute(database.db);
    expect(lengths.rows).toEqual([
      { length: 6, n: 10 },
      { length: 7, n: 38 },
    ]);
  });
});

describe("texts honour STOP at the last moment", () => {
  it("does not send a queued consent request when STOP arrived after it was queued", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      phone: "+15555550188",
      smsConsent: "none",
    });
    const context = makeTestContext(database);
    await requestSmsConsent(database.db, context.config, storyteller.id);
    // The text waits for the Storyteller's day; meanwhile the number texts STOP.
    await handleInboundSms(database.db, context.config, { from: "+15555550188", body: "STOP" });
    await makeJobsDue(database.db, "outbox__send");

    const texts = recordingSms();
    await runOnce({ pgPool: database.pool, taskList: createTaskList({ ...context, sms: texts.sms }) });
    await waitForJobsToSettle(database.db);

    expect(texts.accepted).toEqual([]);
    const message = await database.db
      .selectFrom("outbox_messages")
      .select(["status", "error"])
      .where("to_address", "=", "+15555550188")
      .executeTakeFirstOrThrow();
    expect(message).toEqual({ status: "failed", error: "opted out (STOP)" });
    expect(await jobsFor(database.db, "outbox__send")).toEqual([]);
  });

  it("holds back a prompt text whose number sends STOP while the batch is going out, and puts the prompt back", async () => {
    const owner = await createUser(database.db);
    const first = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      phone: "+15555550191",
      nextSendAt: due,
    });
    const second = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      phone: "+15555550192",
      nextSendAt: due,
    });
    const context = makeTestContext(database);
    // While the first text is with the provider, the second number texts STOP.
    const texts = recordingSms(async (message) => {
      if (message.to === "+15555550191")
        await handleInboundSms(database.db, context.config, { from: "+15555550192", body: "STOP" });
    });
    const deps = { ...context, sms: texts.sms };
    await runSchedulerTick(deps, now);
    const [job] = await batchJobs();
    expect(job.queue_name).toBe("texts");
    // Rows in the order the texts go: the first Storyteller's first.
    const ids = await database.db
      .selectFrom("deliveries")
      .innerJoin("prompts", "prompts.id", "deliveries.prompt_id")
      .select(["deliveries.id", "prompts.storyteller_id"])
      .execute();
    const ordered = [first.id, second.id].map((s) => ids.find((row) => row.storyteller_id === s)!.id);
    expect(await sendDeliveryBatch(deps, ordered, { now, claimant: "job-1" })).toMatchObject({
      sent: 1,
      cancelled: 1,
    });

    expect(texts.accepted.map((m) => m.to)).toEqual(["+15555550191"]);
    const held = await database.db
      .selectFrom("deliveries")
      .innerJoin("prompts", "prompts.id", "deliveries.prompt_id")
      .innerJoin("outbox_messages", "outbox_messages.id", "deliveries.outbox_message_id")
      .select(["deliveries.status", "deliveries.error", "prompts.sent_at", "outbox_messages.status as outbox_status"])
      .where("prompts.storyteller_id", "=", second.id)
      .executeTakeFirstOrThrow();
    expect(held).toEqual({ status: "cancelled", error: "opted out", sent_at: null, outbox_status: "failed" });
  });

  it("runs through graphile-worker: a failed provider call is retried by the same job, which may then reconcile", async () => {
    allowConsoleErrors(5);
    const owner = await createUser(database.db);
    await createStorytellers(database.db, 2, { ownerId: owner.id, nextSendAt: new Date() });
    const { mail, accepted } = batchMail();
    let fail = true;
    const flaky: MailService = {
      ...mail,
      async sendBatch(messages) {
        if (fail) {
          fail = false;
          throw new Error("connection reset");
        }
        return mail.sendBatch!(messages);
      },
    };
    const deps = { ...makeTestContext(database), mail: flaky };
    await runSchedulerTick(deps);
    await runOnce({ pgPool: database.pool, taskList: createTaskList(deps) });
    await waitForJobsToSettle(database.db);
    await makeJobsDue(database.db, "delivery__send_batch");
    await runOnce({ pgPool: database.pool, taskList: createTaskList(deps) });
    await waitForJobsToSettle(database.db);
    // Whether sent or deferred depends on the clock (quiet hours); never twice.
    expect(new Set(accepted.map((m) => m.id)).size).toBe(accepted.length);
    const stuck = await database.db.selectFrom("deliveries").select("status").where("status", "=", "sending").execute();
    expect(stuck).toEqual([]);
  });
});
