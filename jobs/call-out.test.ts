import { sql } from "kysely";
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queueSendNow, sendDelivery, sendDeliveryBatch } from "~/models/delivery.server";
import { runSchedulerTick } from "~/models/scheduler.server";
import { handleInboundSms } from "~/models/sms-consent.server";
import { type CallService, createCallService } from "~/services/call-out.server";
import { listOutboxMessages, queueMessagesWithoutJobs, sendOutboxMessage } from "~/services/outbox.server";
import { createTwilioVoice, createVoiceService } from "~/services/voice.server";
import { action as outboxAction } from "../app/routes/dev.outbox/route";
import { action as voiceAction } from "../app/routes/webhooks.twilio.voice";
import { formRequest, makeTestContext, routeArgs } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { createStoryteller, createUser } from "../tests/factories";
import { type RecordedRequest, sendJson, startFakeApi } from "../tests/fake-http-server";
import { jobsFor } from "../tests/jobs";

// Call-out (decision 027): the scheduler's call to a "Phone call" Storyteller goes through the send
// ledger and the outbox like a text, placed with Twilio's Calls API (a local server speaking it).

const database = useTestDatabase();

const APP_URL = "https://heirloom.example";
const ACCOUNT_SID = "AC" + "2".repeat(32);
const AUTH_TOKEN = "auth-token-call-out-123";
const VOICE_NUMBER = "+15555550100";
const PHONE = "+14165550199";

type PlacedCall = { sid: string; to: string; from: string; url: string; statusCallback: string; at: Date };
const placed: PlacedCall[] = [];
const rfc2822 = (date: Date) => date.toUTCString().replace("GMT", "+0000");

let fake: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  fake = await startFakeApi((request: RecordedRequest, res) => {
    const url = new URL(request.url, "http://twilio.test");
    if (url.pathname !== `/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json`)
      return sendJson(res, 404, { code: 20404, message: "Not found", status: 404 });
    if (request.method === "POST") {
      const form = new URLSearchParams(request.body);
      const call = {
        sid: "CA" + (placed.length + 1).toString(16).padStart(32, "0"),
        to: form.get("To") ?? "",
        from: form.get("From") ?? "",
        url: form.get("Url") ?? "",
        statusCallback: form.get("StatusCallback") ?? "",
        at: new Date(),
      };
      placed.push(call);
      return sendJson(res, 201, { sid: call.sid, status: "queued", account_sid: ACCOUNT_SID, to: call.to });
    }
    // GET: the account's calls, newest first, filtered by To and From as Twilio does.
    const calls = placed
      .filter((c) => c.to === url.searchParams.get("To") && c.from === url.searchParams.get("From"))
      .reverse()
      .map((c) => ({
        sid: c.sid,
        account_sid: ACCOUNT_SID,
        to: c.to,
        from: c.from,
        status: "queued",
        direction: "outbound-api",
        date_created: rfc2822(c.at),
        date_updated: rfc2822(c.at),
        uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Calls/${c.sid}.json`,
      }));
    sendJson(res, 200, {
      calls,
      end: calls.length,
      first_page_uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json?PageSize=20&Page=0`,
      next_page_uri: null,
      page: 0,
      page_size: 20,
      previous_page_uri: null,
      start: 0,
      uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json?PageSize=20&Page=0`,
    });
  });
});
afterAll(() => fake.close());

beforeEach(async () => {
  placed.length = 0;
  await sql`truncate users, outbox_messages, sms_consents, call_consents cascade`.execute(database.db);
  await sql`delete from graphile_worker._private_jobs`.execute(database.db);
});

const context = () =>
  makeTestContext(database, {
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_FROM_NUMBER: VOICE_NUMBER,
    TWILIO_VOICE_NUMBER: VOICE_NUMBER,
    TWILIO_API_URL: fake.url,
    APP_URL,
  });

/** The send job's dependencies with Twilio's calls; `wrap` stands in for a worker dying around the call. */
function twilioDeps(wrap: (calls: CallService) => CallService = (calls) => calls) {
  const ctx = context();
  return { ...ctx, calls: wrap(createCallService(ctx.config, createTwilioVoice(ctx.config))) };
}

// 10:00 in Toronto (and New York) on 2026-04-01; the batch runs 40 s later.
const due = new Date("2026-04-01T14:00:00Z");
const now = new Date("2026-04-01T14:00:40Z");

async function calledStoryteller() {
  const owner = await createUser(database.db, { first_name: "Ravi" });
  return createStoryteller(database.db, {
    ownerId: owner.id,
    deliveryMethod: "call",
    phone: PHONE,
    timeZone: "America/Toronto",
    nextSendAt: due,
    prompts: ["What songs did your mother sing?", "Where did you go to school?"],
  });
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

const ledger = () =>
  sql<{
    id: string;
    channel: string;
    status: string;
    error: string | null;
    provider_message_id: string | null;
    outbox_message_id: string | null;
    prompt_id: string;
    prompt_sent: boolean;
    scheduled_for: Date;
  }>`
    select d.id, d.channel, d.status, d.error, d.provider_message_id, d.outbox_message_id, d.prompt_id,
           p.sent_at is not null as prompt_sent, d.scheduled_for
    from deliveries d join prompts p on p.id = d.prompt_id order by d.created_at`
    .execute(database.db)
    .then((r) => r.rows);

/** The scheduler's tick and batch job, as the worker runs them. */
async function tickAndSend(deps: ReturnType<typeof twilioDeps>, at = now, claimant = "job-1") {
  await runSchedulerTick(deps, due);
  const [job] = await batchJobs();
  return { job, result: await sendDeliveryBatch(deps, job.payload.deliveryIds, { now: at, claimant }) };
}

function signedPost(path: string, params: Record<string, string>) {
  const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${APP_URL}${path}`, params);
  return voiceAction({
    request: new Request(`http://localhost:3000${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
      body: new URLSearchParams(params),
    }),
    context: context(),
    params: {},
    ...routeArgs,
  });
}
/** A request Twilio makes to a webhook URL we gave it (the call's Url or StatusCallback). */
const twilioCalls = async (url: string, params: Record<string, string>) => {
  const response = await signedPost(url.slice(APP_URL.length), params);
  return { status: response.status, xml: await response.text() };
};
const said = (xml: string) => [...xml.matchAll(/<Say[^>]*>([^<]*)<\/Say>/g)].map((m) => m[1]);

describe("calling out on the Storyteller's schedule", () => {
  it("places one call per prompt per schedule date through Twilio's Calls API, however often the jobs run", async () => {
    const storyteller = await calledStoryteller();
    const deps = twilioDeps();
    expect(await runSchedulerTick(deps, due)).toMatchObject({ schedules: 1, deliveries: 1 });
    // The same minute again (a second runner, a retried tick): the schedule has moved on.
    expect(await runSchedulerTick(deps, due)).toMatchObject({ schedules: 0, deliveries: 0 });

    const jobs = await batchJobs();
    expect(jobs.map((j) => [j.payload.deliveryIds.length, j.queue_name])).toEqual([[1, "calls"]]);
    const [job] = jobs;
    expect(await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).toMatchObject({
      sent: 1,
    });
    // The job again, as a retry would run it: nothing is called twice.
    expect(await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).toMatchObject({
      sent: 0,
      "nothing-to-do": 1,
    });

    expect(placed).toHaveLength(1);
    const [row] = await ledger();
    expect(row).toMatchObject({
      channel: "call",
      status: "sent",
      provider_message_id: placed[0].sid,
      prompt_id: storyteller.prompts[0].id,
      prompt_sent: true,
    });
    expect(placed[0]).toMatchObject({
      to: PHONE,
      from: VOICE_NUMBER,
      url: `${APP_URL}/webhooks/twilio/voice?step=outbound&m=${row.outbox_message_id}`,
      statusCallback: `${APP_URL}/webhooks/twilio/voice?step=status&m=${row.outbox_message_id}`,
    });
    const create = fake.requests.find((r) => r.method === "POST")!;
    expect(Object.fromEntries(new URLSearchParams(create.body))).toMatchObject({ MachineDetection: "Enable" });
    const message = await database.db
      .selectFrom("outbox_messages")
      .select(["channel", "provider", "status"])
      .where("id", "=", row.outbox_message_id)
      .executeTakeFirstOrThrow();
    expect(message).toEqual({ channel: "call", provider: "twilio", status: "sent" });
    // The family hears of it like any sent prompt.
    expect(
      await database.db.selectFrom("notifications").select("type").where("prompt_id", "=", row.prompt_id).execute(),
    ).toEqual([{ type: "new" }]);
  });

  it("calls once when the worker dies between claiming the call and placing it, or after Twilio took it", async () => {
    // Dies before Twilio hears of it: the retry asks Twilio (no such call), then places it.
    let dieBefore = true;
    const before = twilioDeps((calls) => ({
      ...calls,
      async send(message) {
        if (dieBefore) {
          dieBefore = false;
          throw new Error("worker died before the call");
        }
        return calls.send(message);
      },
    }));
    await calledStoryteller();
    await runSchedulerTick(before, due);
    const [job] = await batchJobs();
    await expect(sendDeliveryBatch(before, job.payload.deliveryIds, { now, claimant: "job-1" })).rejects.toThrow(
      /died before/,
    );
    expect(placed).toHaveLength(0);
    expect((await ledger())[0]).toMatchObject({ status: "sending", prompt_sent: true });
    expect(await sendDeliveryBatch(before, job.payload.deliveryIds, { now, claimant: "job-1" })).toMatchObject({
      sent: 1,
    });
    expect(placed).toHaveLength(1);
    expect((await ledger())[0]).toMatchObject({ status: "sent", provider_message_id: placed[0].sid });

    // Dies after Twilio placed it (the answer never came back): the retry finds the call, places none.
    await sql`truncate users, outbox_messages cascade`.execute(database.db);
    await sql`delete from graphile_worker._private_jobs`.execute(database.db);
    placed.length = 0;
    let dieAfter = true;
    const after = twilioDeps((calls) => ({
      ...calls,
      async send(message) {
        const sid = await calls.send(message);
        if (dieAfter) {
          dieAfter = false;
          throw new Error("connection lost after the call was placed");
        }
        return sid;
      },
    }));
    await calledStoryteller();
    await runSchedulerTick(after, due);
    const [second] = await batchJobs();
    await expect(sendDeliveryBatch(after, second.payload.deliveryIds, { now, claimant: "job-2" })).rejects.toThrow(
      /connection lost/,
    );
    expect(await sendDeliveryBatch(after, second.payload.deliveryIds, { now, claimant: "job-2" })).toMatchObject({
      sent: 1,
    });
    expect(placed).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === "GET").length).toBeGreaterThan(0);
    expect((await ledger())[0]).toMatchObject({ status: "sent", provider_message_id: placed[0].sid });
  });

  it("does not take another Storyteller's call on the same number for the one whose attempt died", async () => {
    // Two Storytellers share a landline; the first call's attempt dies before Twilio hears of it,
    // the second is placed. The retry must place the first, not credit it with the second's call.
    let died = false;
    const deps = twilioDeps((calls) => ({
      ...calls,
      async send(message) {
        if (!died) {
          died = true;
          throw new Error("worker died before the call");
        }
        return calls.send(message);
      },
    }));
    await calledStoryteller();
    await calledStoryteller();
    await runSchedulerTick(deps, due);
    const [job] = await batchJobs();
    expect(job.payload.deliveryIds).toHaveLength(2);
    await expect(sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).rejects.toThrow(
      /died before/,
    );
    expect(placed).toHaveLength(1);
    expect(await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).toMatchObject({
      sent: 1,
    });
    expect(placed).toHaveLength(2);
    const rows = await ledger();
    expect(rows.map((row) => row.status)).toEqual(["sent", "sent"]);
    expect(new Set(rows.map((row) => row.provider_message_id))).toEqual(new Set(placed.map((call) => call.sid)));
  });

  it("never rings at night when a call's attempt died and its retry comes after 21:00", async () => {
    let die = true;
    const deps = twilioDeps((calls) => ({
      ...calls,
      async send(message) {
        if (die) {
          die = false;
          throw new Error("worker died before the call");
        }
        return calls.send(message);
      },
    }));
    await calledStoryteller();
    await runSchedulerTick(deps, due);
    const [job] = await batchJobs();
    await expect(sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).rejects.toThrow(
      /died before/,
    );
    // The worker's retry comes at 01:00 in Toronto: nothing is placed; the row waits for 08:00.
    const night = new Date("2026-04-02T05:00:00Z");
    expect(await sendDeliveryBatch(deps, job.payload.deliveryIds, { now: night, claimant: "job-1" })).toMatchObject({
      sent: 0,
      deferred: 1,
    });
    expect(placed).toHaveLength(0);
    const [row] = await ledger();
    expect(row).toMatchObject({ status: "sending", prompt_sent: true });
    const [deferred] = await jobsFor(database.db, "delivery__send");
    expect(deferred.payload).toMatchObject({ deliveryId: row.id });
    expect(deferred.run_at.toISOString()).toBe("2026-04-02T12:00:00.000Z");
    // At 08:00 the call is placed, once.
    const morning = new Date("2026-04-02T12:00:05Z");
    expect(await sendDelivery(deps, row.id, { now: morning })).toBe("sent");
    expect(placed).toHaveLength(1);
    expect((await ledger())[0]).toMatchObject({ status: "sent", provider_message_id: placed[0].sid });
  });

  it("keeps to 08:00–21:00 where the Storyteller lives: a late scheduled call and a late Send now wait", async () => {
    const storyteller = await calledStoryteller();
    const deps = twilioDeps();
    // The worker was down: the batch runs at 21:30 in Toronto.
    const late = new Date("2026-04-02T01:30:00Z");
    const { result } = await tickAndSend(deps, late);
    expect(result).toMatchObject({ sent: 0, deferred: 1 });
    expect(placed).toHaveLength(0);
    const [row] = await ledger();
    expect(row).toMatchObject({ status: "pending", prompt_sent: false });
    // The next day's 10:00 in Toronto, on its own send job in the calls queue.
    expect(row.scheduled_for.toISOString()).toBe("2026-04-02T14:00:00.000Z");
    const [deferred] = await jobsFor(database.db, "delivery__send");
    expect(deferred.payload).toMatchObject({ deliveryId: row.id });
    expect(deferred.run_at.toISOString()).toBe("2026-04-02T14:00:00.000Z");

    // "Send now" at 22:00 Toronto time for the next question waits for 08:00.
    const night = new Date("2026-04-02T02:00:00Z");
    expect(await queueSendNow(database.db, storyteller.prompts[1].id, night)).toMatchObject({ outcome: "queued" });
    const nowRow = (await ledger()).find((d) => d.prompt_id === storyteller.prompts[1].id)!;
    expect(await sendDelivery(deps, nowRow.id, { sendNow: true, now: night })).toBe("deferred");
    expect(placed).toHaveLength(0);
    expect((await ledger()).find((d) => d.id === nowRow.id)!.scheduled_for.toISOString()).toBe(
      "2026-04-02T12:00:00.000Z",
    );
  });

  it("records an unanswered, busy or failed call from Twilio's status callback; the prompt stays sent", async () => {
    await calledStoryteller();
    const deps = twilioDeps();
    await tickAndSend(deps);
    const [call] = placed;
    const status = await twilioCalls(call.statusCallback, {
      CallSid: call.sid,
      AccountSid: ACCOUNT_SID,
      From: VOICE_NUMBER,
      To: PHONE,
      CallStatus: "no-answer",
    });
    expect(status.status).toBe(204);
    const [row] = await ledger();
    expect(row).toMatchObject({ status: "failed", error: "no answer", prompt_sent: true });
    // Nothing places it again: the Storyteller can still call in with the prompt's code.
    await runSchedulerTick(deps, due);
    expect(await batchJobs()).toHaveLength(1);
    expect(placed).toHaveLength(1);
  });

  it("takes a completed call's status callback as the word that it went, when its worker died after placing it", async () => {
    await calledStoryteller();
    const deps = twilioDeps((calls) => ({
      ...calls,
      async send(message) {
        await calls.send(message);
        throw new Error("worker died after the call was placed");
      },
    }));
    await expect(tickAndSend(deps)).rejects.toThrow(/worker died/);
    expect((await ledger())[0]).toMatchObject({ status: "sending" });
    const [call] = placed;
    await twilioCalls(call.statusCallback, {
      CallSid: call.sid,
      AccountSid: ACCOUNT_SID,
      From: VOICE_NUMBER,
      To: PHONE,
      CallStatus: "completed",
    });
    expect((await ledger())[0]).toMatchObject({ status: "sent", provider_message_id: call.sid, prompt_sent: true });
  });

  it("ties a call-out's webhook to the call its message placed, never another call", async () => {
    await calledStoryteller();
    await tickAndSend(twilioDeps());
    const [call] = placed;
    const otherSid = "CA" + "f".repeat(32);
    await twilioCalls(call.url, {
      CallSid: otherSid,
      AccountSid: ACCOUNT_SID,
      From: VOICE_NUMBER,
      To: PHONE,
      Direction: "outbound-api",
      AnsweredBy: "human",
    });
    const calls = () => database.db.selectFrom("phone_calls").select("call_sid").execute();
    expect(await calls()).toEqual([]);
    await twilioCalls(call.url, {
      CallSid: call.sid,
      AccountSid: ACCOUNT_SID,
      From: VOICE_NUMBER,
      To: PHONE,
      Direction: "outbound-api",
      AnsweredBy: "human",
    });
    expect(await calls()).toEqual([{ call_sid: call.sid }]);
  });

  it("asks a person the question and lets them stop the calls with 0; an answering machine gets the number and code", async () => {
    await calledStoryteller();
    const deps = twilioDeps();
    await tickAndSend(deps);
    const [call] = placed;
    const params = {
      CallSid: call.sid,
      AccountSid: ACCOUNT_SID,
      From: VOICE_NUMBER,
      To: PHONE,
      Direction: "outbound-api",
    };

    // No call row was written by the sender: the webhook's `m` finds the prompt.
    const human = await twilioCalls(call.url, { ...params, AnsweredBy: "human" });
    expect(said(human.xml)).toEqual(
      expect.arrayContaining(["What songs did your mother sing?", "To stop these calls, press 0."]),
    );
    expect(human.xml).toContain("<Record ");
    const stopped = await twilioCalls(`${APP_URL}/webhooks/twilio/voice?step=key`, { ...params, Digits: "0" });
    expect(said(stopped.xml)).toEqual([
      "We will not call you again. You can still call us whenever you like. Goodbye.",
    ]);
    expect(
      await database.db.selectFrom("storytellers").select("call_consent").where("phone_e164", "=", PHONE).execute(),
    ).toEqual([{ call_consent: "revoked" }]);
    expect(
      await database.db.selectFrom("call_consents").select(["status", "source"]).orderBy("created_at").execute(),
    ).toEqual([{ status: "revoked", source: "call" }]);

    // The next date: no call goes, and the owner sees why.
    await sql`update schedules set next_send_at = ${due}`.execute(database.db);
    expect(await runSchedulerTick(deps, due)).toMatchObject({ schedules: 1, deliveries: 0 });
    expect(placed).toHaveLength(1);

    // A machine on another call-out hears the short message, not the question.
    await sql`truncate users, outbox_messages, call_consents cascade`.execute(database.db);
    await sql`delete from graphile_worker._private_jobs`.execute(database.db);
    placed.length = 0;
    await calledStoryteller();
    await tickAndSend(deps);
    const machine = await twilioCalls(placed[0].url, {
      ...params,
      CallSid: placed[0].sid,
      AnsweredBy: "machine_end_beep",
    });
    expect(said(machine.xml).join(" ")).toMatch(
      /^Hello, this is Heirloom with a question from Ravi\. To answer it, call 5 5 5, 5 5 5, 0 1 0 0 and enter the code \d \d \d, \d \d \d\. Goodbye\.$/,
    );
    expect(machine.xml).not.toContain("<Record");
  });

  it("stops calling a number that texts STOP, checked right before the call is placed", async () => {
    const deps = twilioDeps();
    const [message] = await queueMessagesWithoutJobs(database.db, [
      { channel: "call", call: { to: PHONE, text: "Call to Kamla" } },
    ]);
    await handleInboundSms(database.db, deps.config, { from: PHONE, body: "STOP" });
    expect(await sendOutboxMessage(deps, message.id, { lastAttempt: false })).toBe("cancelled");
    expect(placed).toHaveLength(0);
    expect(
      await database.db
        .selectFrom("outbox_messages")
        .select(["status", "error"])
        .where("id", "=", message.id)
        .execute(),
    ).toEqual([{ status: "failed", error: "opted out of calls" }]);
  });
});

describe("calling out without Twilio", () => {
  it("places the call with the phone simulator, and the outbox shows it", async () => {
    await calledStoryteller();
    const ctx = makeTestContext(database);
    const deps = { ...ctx, calls: createCallService(ctx.config, createVoiceService(ctx.config, ctx.storage)) };
    await runSchedulerTick(deps, due);
    const [job] = await batchJobs();
    expect(await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" })).toMatchObject({
      sent: 1,
    });
    const [shown] = await listOutboxMessages(database.db, ["email", "sms", "call"]);
    expect(shown).toMatchObject({ channel: "call", to_address: PHONE, status: "sent" });
    expect(shown.text_body).toContain("What songs did your mother sing?");
    expect(shown.text_body).toMatch(/Or call \+1 555 555 0100 and enter \d{3} \d{3}\./);
  });

  it("lets /dev/outbox pick the call up, as the Storyteller or as a machine, through the call's own webhook step", async () => {
    await calledStoryteller();
    const ctx = makeTestContext(database);
    const deps = { ...ctx, calls: createCallService(ctx.config, createVoiceService(ctx.config, ctx.storage)) };
    await runSchedulerTick(deps, due);
    const [job] = await batchJobs();
    await sendDeliveryBatch(deps, job.payload.deliveryIds, { now, claimant: "job-1" });
    const [message] = await listOutboxMessages(database.db, ["call"]);
    const answer = (answeredBy: string) =>
      outboxAction({
        request: formRequest("/dev/outbox?phone", { intent: "phone-answer", messageId: message.id, answeredBy }),
        context: ctx,
        params: {},
        ...routeArgs,
      }) as Promise<{ phone: { heard: (string | null)[]; record: unknown; ended: boolean } }>;
    const person = await answer("human");
    expect(person.phone.heard).toContain("What songs did your mother sing?");
    expect(person.phone.heard).toContain("To stop these calls, press 0.");
    expect(person.phone.record).not.toBeNull();
    const machine = await answer("machine_end_beep");
    expect(machine.phone.ended).toBe(true);
    expect(machine.phone.heard.join(" ")).toMatch(/^Hello, this is Heirloom with a question from Ravi\./);
  });
});
