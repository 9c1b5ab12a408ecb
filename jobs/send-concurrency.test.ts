import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queueSendNow, sendDelivery, sendDeliveryBatch } from "~/models/delivery.server";
import { runSchedulerTick } from "~/models/scheduler.server";
import { handleInboundSms } from "~/models/sms-consent.server";
import type { MailMessage, MailService } from "~/services/mail.server";
import type { SmsMessage, SmsService } from "~/services/sms.server";
import { createDb, createPool, type Db } from "../db/client";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createStoryteller, createStorytellers, createUser } from "../tests/factories";
import { jobsFor } from "../tests/jobs";

const database = useTestDatabase();
// Several processes' worth of connections: every sender and tick below holds one at a time.
let db: Db;
beforeAll(() => {
  db = createDb(createPool(database.url, 16));
});
afterAll(() => db.destroy());
beforeEach(async () => {
  await sql`truncate users, outbox_messages, sms_consents cascade`.execute(database.db);
  await sql`delete from graphile_worker._private_jobs`.execute(database.db);
});

// 10:00 in New York; everything runs 40 s later.
const due = new Date("2026-04-01T14:00:00Z");
const now = new Date("2026-04-01T14:00:40Z");

function providers() {
  const mailed: MailMessage[] = [];
  const texted: SmsMessage[] = [];
  const mail: MailService = {
    name: "postmark",
    async send(message) {
      mailed.push(message);
      return `pm-${message.id}`;
    },
    async sendBatch(messages) {
      mailed.push(...messages);
      return messages.map((m) => ({ providerMessageId: `pm-${m.id}` }));
    },
    async findSent(message) {
      return mailed.some((m) => m.id === message.id) ? `pm-${message.id}` : null;
    },
  };
  const sms: SmsService = {
    name: "twilio",
    async send(message) {
      texted.push(message);
      return `SM${texted.length}`;
    },
    async findSent(message) {
      return texted.some((m) => m.id === message.id) ? "SM-found" : null;
    },
  };
  return { mail, sms, mailed, texted };
}

const deliveryIdsOf = async (kind: "delivery__send_batch" | "delivery__send") =>
  (await jobsFor(database.db, kind)).flatMap((job) =>
    kind === "delivery__send" ? [job.payload.deliveryId as string] : (job.payload.deliveryIds as string[]),
  );

describe("ticks, send batches and Send now at once", () => {
  it("over shared Storytellers, schedules, prompts and phone numbers: no deadlock, each prompt sent once", async () => {
    const { mail, sms, mailed, texted } = providers();
    const deps = { ...makeTestContext(database), db, mail, sms };
    const owner = await createUser(database.db);

    // The first minute's Storytellers (email, and texts to two numbers five of them share) are
    // ticked already: their batch jobs wait.
    await createStorytellers(database.db, 30, { ownerId: owner.id, nextSendAt: due });
    for (let i = 0; i < 10; i++)
      await createStoryteller(database.db, {
        ownerId: owner.id,
        deliveryMethod: "sms",
        phone: i % 2 ? "+15555550101" : "+15555550102",
        nextSendAt: due,
      });
    await runSchedulerTick(deps, now);
    const batched = await deliveryIdsOf("delivery__send_batch");
    expect(batched).toHaveLength(40);

    // Then, due in the same minute: Storytellers whose owner heard their queue was empty, added
    // questions and pressed "Send now" on half of them, while the next tick comes.
    const later = await createStorytellers(database.db, 24, {
      ownerId: owner.id,
      nextSendAt: due,
      prompts: ["Who taught you to cook?"],
    });
    await db
      .updateTable("schedules")
      .set({ empty_queue_notified_at: due })
      .where(
        "storyteller_id",
        "in",
        later.map((s) => s.id),
      )
      .execute();
    const heads = await db
      .selectFrom("prompts")
      .select("id")
      .where(
        "storyteller_id",
        "in",
        later.map((s) => s.id),
      )
      .orderBy("id")
      .execute();
    for (const head of heads.filter((_, i) => i % 2 === 0))
      expect(await queueSendNow(db, head.id, now)).toMatchObject({ outcome: "queued" });
    const sentNow = await deliveryIdsOf("delivery__send");
    expect(sentNow).toHaveLength(12);

    // Every row in three overlapping batches, half of them in reverse; three ticks in small
    // batches over the same schedules; "Send now" one by one and as a batch; STOP from a number
    // five Storytellers share.
    const overlapping = Array.from({ length: 6 }, (_, b) => {
      const some = batched.filter((_, i) => i % 2 !== b % 2);
      return b % 3 ? some.reverse() : some;
    });
    const work = [
      ...overlapping.map((ids, b) => sendDeliveryBatch(deps, ids, { now, claimant: `batch-${b}` })),
      ...[0, 1, 2].map(() => runSchedulerTick(deps, now, 3)),
      ...[...sentNow].reverse().map((id) => sendDelivery(deps, id, { sendNow: true, now, claimant: "send-now" })),
      sendDeliveryBatch(deps, sentNow, { now, claimant: "send-now-batch" }),
      handleInboundSms(db, deps.config, { from: "+15555550101", body: "STOP" }, now),
    ];
    // PostgreSQL's detail names the two waits and the row, so a failure shows which order crossed.
    const failures = (await Promise.allSettled(work)).flatMap((r) =>
      r.status === "rejected" ? [`${r.reason} ${(r.reason as { detail?: string }).detail ?? ""}`] : [],
    );
    expect(failures).toEqual([]);

    // The batch jobs the ticks queued, as the worker would then run them.
    await sendDeliveryBatch(deps, await deliveryIdsOf("delivery__send_batch"), { now, claimant: "tick-batches" });

    // The texts to the number that said STOP went before it or not at all; the rest went once each.
    const beforeStop = texted.filter((m) => m.to === "+15555550101").length;
    const everyone = 59 + beforeStop;
    expect(mailed.length + texted.length).toBe(everyone);
    expect(new Set(mailed.map((m) => m.to)).size).toBe(54);
    expect(texted.filter((m) => m.to === "+15555550102")).toHaveLength(5);
    const ledger = await sql<{ status: string; error: string | null; rows: number; prompts: number; unsent: number }>`
      select d.status, d.error, count(*)::int as rows, count(distinct d.prompt_id)::int as prompts,
             count(*) filter (where p.sent_at is null)::int as unsent
      from deliveries d join prompts p on p.id = d.prompt_id group by 1, 2 order by 1`.execute(database.db);
    expect(ledger.rows).toEqual([
      ...(beforeStop < 5
        ? [
            {
              status: "cancelled",
              error: "opted out",
              rows: 5 - beforeStop,
              prompts: 5 - beforeStop,
              unsent: 5 - beforeStop,
            },
          ]
        : []),
      { status: "sent", error: null, rows: everyone, prompts: everyone, unsent: 0 },
    ]);
    const codes = await sql<{ n: number; distinct: number }>`
      select count(*)::int as n, count(distinct code_hmac)::int as distinct from answer_codes`.execute(database.db);
    expect(codes.rows[0].distinct).toBe(codes.rows[0].n);
    expect(codes.rows[0].n).toBeGreaterThanOrEqual(everyone);
    // A note left set is one the owner was told of this minute (a queue emptied by Send now).
    const notes = await sql<{ noted: number; stale: number; told: number }>`
      select (select count(*)::int from schedules where empty_queue_notified_at > ${due}) as noted,
             (select count(*)::int from schedules where empty_queue_notified_at = ${due}) as stale,
             (select count(*)::int from notifications where type = 'queue_empty') as told`.execute(database.db);
    expect(notes.rows[0]).toMatchObject({ stale: 0, noted: notes.rows[0].told });
  });
});
