import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { createDb, createPool } from "../../db/client";
import { makeTestContext } from "../../tests/context";
import { createTestDatabase, dropTestDatabase, useTestDatabase } from "../../tests/db";
import {
  createDelivery,
  createPrompt,
  createStoryteller,
  createStorytellers,
  createStorytellersInBulk,
  createUser,
} from "../../tests/factories";
import { jobsFor } from "../../tests/jobs";
import { dueSchedulesQuery, runSchedulerTick } from "./scheduler.server";

const database = useTestDatabase();
// Every test starts from no users, schedules or jobs: a tick sees the whole table.
beforeEach(async () => {
  await sql`truncate users, outbox_messages cascade`.execute(database.db);
  await sql`delete from graphile_worker._private_jobs`.execute(database.db);
});
const context = () => makeTestContext(database);

const scheduleOf = (storytellerId: string) =>
  database.db.selectFrom("schedules").selectAll().where("storyteller_id", "=", storytellerId).executeTakeFirstOrThrow();

describe("the scheduler tick", () => {
  it("writes one ledger row for the head of each due queue, queues its batch send job and moves the schedule on", async () => {
    const owner = await createUser(database.db);
    // 10:00 in New York on 2026-03-10 (after the DST change) is 14:00 UTC.
    const due = new Date("2026-03-10T14:00:00Z");
    const now = new Date("2026-03-10T14:00:30Z");
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      frequency: "weekly",
      firstPromptDate: "2026-03-03",
      nextSendAt: due,
      prompts: ["First question here", "Second question here"],
    });
    const later = await createStoryteller(database.db, {
      ownerId: owner.id,
      nextSendAt: new Date("2026-03-10T15:00:00Z"),
    });

    const result = await runSchedulerTick(context(), now);
    expect(result).toEqual({ schedules: 1, deliveries: 1, emptyQueues: 0 });

    const deliveries = await database.db.selectFrom("deliveries").selectAll().execute();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      prompt_id: storyteller.prompts[0].id,
      channel: "email",
      status: "pending",
      scheduled_for: due,
    });
    const jobs = await jobsFor(database.db, "delivery__send_batch");
    expect(jobs).toEqual([expect.objectContaining({ payload: { deliveryIds: [deliveries[0].id] } })]);
    // Weekly from 3 March: next is 17 March, 10:00 New York = 14:00 UTC.
    expect((await scheduleOf(storyteller.id)).next_send_at).toEqual(new Date("2026-03-17T14:00:00Z"));
    expect((await scheduleOf(later.id)).next_send_at).toEqual(new Date("2026-03-10T15:00:00Z"));

    // The same minute again: nothing new.
    expect(await runSchedulerTick(context(), now)).toEqual({ schedules: 0, deliveries: 0, emptyQueues: 0 });
  });

  it("does not catch up missed dates: a week offline gives one send, and the next date is after now", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      timeZone: "Asia/Kolkata",
      frequency: "daily",
      nextSendAt: new Date("2026-05-01T04:30:00Z"),
      prompts: ["Question one here", "Question two here"],
    });
    const now = new Date("2026-05-08T06:00:00Z"); // 11:30 in Kolkata a week later
    expect((await runSchedulerTick(context(), now)).deliveries).toBe(1);
    expect((await scheduleOf(storyteller.id)).next_send_at).toEqual(new Date("2026-05-09T04:30:00Z"));
  });

  it("skips paused schedules, and only moves on for Storytellers who cannot receive", async () => {
    const owner = await createUser(database.db);
    const due = new Date("2026-06-01T14:00:00Z");
    const paused = await createStoryteller(database.db, { ownerId: owner.id, nextSendAt: due });
    await database.db
      .updateTable("schedules")
      .set({ paused_at: due })
      .where("storyteller_id", "=", paused.id)
      .execute();
    const unsubscribed = await createStoryteller(database.db, { ownerId: owner.id, nextSendAt: due });
    await database.db
      .updateTable("storytellers")
      .set({ unsubscribed_at: due })
      .where("id", "=", unsubscribed.id)
      .execute();
    const waitingForYes = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      smsConsent: "requested",
      nextSendAt: due,
    });
    const optedOut = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      smsConsent: "revoked",
      nextSendAt: due,
    });

    const result = await runSchedulerTick(context(), new Date("2026-06-01T14:01:00Z"));
    expect(result).toEqual({ schedules: 3, deliveries: 0, emptyQueues: 0 });
    expect(await database.db.selectFrom("deliveries").select("id").execute()).toEqual([]);
    expect((await scheduleOf(paused.id)).next_send_at).toEqual(due);
    for (const s of [unsubscribed, waitingForYes, optedOut])
      expect((await scheduleOf(s.id)).next_send_at).toEqual(new Date("2026-06-02T14:00:00Z"));
    // Their prompts stay queued for when they can receive again.
    const stillQueued = await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", waitingForYes.id)
      .where("sent_at", "is", null)
      .execute();
    expect(stillQueued).toHaveLength(1);
  });

  it("tells the owner once, by email and in the app, when the queue is empty", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      nextSendAt: new Date("2026-07-01T14:00:00Z"),
      prompts: [],
    });
    await runSchedulerTick(context(), new Date("2026-07-01T14:00:10Z"));
    await runSchedulerTick(context(), new Date("2026-07-02T14:00:10Z")); // next day, still empty: no second note
    const notes = await database.db.selectFrom("notifications").selectAll().where("user_id", "=", owner.id).execute();
    expect(notes).toEqual([expect.objectContaining({ type: "queue_empty", storyteller_id: storyteller.id })]);
    const emails = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("to_address", "=", owner.email)
      .execute();
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toBe("Add more questions for Nani");
    expect(emails[0].text_body).toContain(`/dashboard/recipient/${storyteller.id}/prompts/new`);
    expect(await database.db.selectFrom("deliveries").select("id").execute()).toEqual([]);

    // A prompt is added and sent; the next empty queue is news again.
    await createPrompt(database.db, { storytellerId: storyteller.id, text: "A new question" });
    await runSchedulerTick(context(), new Date("2026-07-03T14:00:10Z"));
    expect((await scheduleOf(storyteller.id)).empty_queue_notified_at).toBeNull();
  });

  it("reopens a cancelled ledger row rather than leaving the prompt stuck", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      nextSendAt: new Date("2026-08-01T14:00:00Z"),
    });
    const { id } = await createDelivery(database.db, {
      promptId: storyteller.prompts[0].id,
      channel: "email",
      status: "cancelled",
      error: "paused",
    });
    expect((await runSchedulerTick(context(), new Date("2026-08-01T14:00:05Z"))).deliveries).toBe(1);
    const row = await database.db.selectFrom("deliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", error: null, scheduled_for: new Date("2026-08-01T14:00:00Z") });
  });

  it("gives one delivery per Storyteller when two runners tick at once", async () => {
    const owner = await createUser(database.db);
    const due = new Date("2026-09-01T14:00:00Z");
    await createStorytellers(database.db, 600, { ownerId: owner.id, nextSendAt: due });

    // Two processes: separate pools, small batches so they interleave.
    const second = createPool(database.url, 3);
    try {
      const now = new Date("2026-09-01T14:00:20Z");
      const [a, b] = await Promise.all([
        runSchedulerTick(context(), now, 50),
        runSchedulerTick({ ...context(), db: createDb(second) }, now, 50),
      ]);
      expect(a.deliveries + b.deliveries).toBe(600);
    } finally {
      await second.end();
    }
    const counts = await sql<{ deliveries: string; prompts: string }>`
      select (select count(*) from deliveries) as deliveries,
             (select count(distinct prompt_id) from deliveries) as prompts`.execute(database.db);
    expect(counts.rows[0]).toEqual({ deliveries: "600", prompts: "600" });
    // Every row in exactly one batch job.
    const batched = (await jobsFor(database.db, "delivery__send_batch")).flatMap(
      (job) => job.payload.deliveryIds as string[],
    );
    expect(batched).toHaveLength(600);
    expect(new Set(batched).size).toBe(600);
  });

  it("finds due schedules through the partial index, not a sequential scan", async () => {
    // A separate database, so other tests' rows don't sway the planner.
    const own = await createTestDatabase();
    try {
      const owner = await createUser(own.db);
      await createStorytellersInBulk(own.db, { ownerId: owner.id, count: 20_000, nextSendWithinDays: 30 });
      await sql`analyze schedules`.execute(own.db);
      const query = dueSchedulesQuery(new Date(), 1000).compile(own.db);
      const plan = await own.pool.query(`explain ${query.sql}`, query.parameters as unknown[]);
      const text = plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
      expect(text).toContain("schedules_due_idx");
      expect(text).not.toMatch(/Seq Scan on schedules/);
    } finally {
      await dropTestDatabase(own);
    }
  });
});
