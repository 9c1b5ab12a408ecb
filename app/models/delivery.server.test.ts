import { runOnce } from "graphile-worker";
import { sql } from "kysely";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostmarkMail } from "~/services/mail.server";
import { verifyCapability } from "~/services/tokens.server";
import { inTransaction } from "../../db/client";
import { createTaskList } from "../../jobs/task-list";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createDelivery, createStoryteller, createUser } from "../../tests/factories";
import { sendJson, startFakeApi } from "../../tests/fake-http-server";
import { jobsFor, makeJobsDue, waitForJobsToSettle } from "../../tests/jobs";
import { allowConsoleErrors } from "../../tests/setup/fail-on-console-error";
import { ensureAnswerCode, formatAnswerCode } from "./answer-code.server";
import { queueSendNow, sendDelivery } from "./delivery.server";
import { getStorytellerView } from "./prompt.server";
import { runSchedulerTick } from "./scheduler.server";

const database = useTestDatabase();
const context = () => makeTestContext(database, { MAIL_POSTAL_ADDRESS: "12 Banyan Road, Pune 411001" });

beforeEach(async () => {
  await sql`truncate users, outbox_messages cascade`.execute(database.db);
  await sql`delete from graphile_worker._private_jobs`.execute(database.db);
});

let closeApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeApi?.();
  closeApi = undefined;
});

const deliveryOf = (promptId: string) =>
  database.db.selectFrom("deliveries").selectAll().where("prompt_id", "=", promptId).executeTakeFirstOrThrow();
const outboxTo = (address: string) =>
  database.db.selectFrom("outbox_messages").selectAll().where("to_address", "=", address).execute();
const localTime = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd HH:mm");

/** A ledger row as the tick makes it, for a prompt due at `scheduledFor`. */
const pendingDelivery = (promptId: string, channel: "email" | "sms", scheduledFor: Date) =>
  createDelivery(database.db, { promptId, channel, scheduledFor });

describe("sending a delivery", () => {
  it("marks the prompt sent and sends the email: prompt, asker, record link, unsubscribe link and headers, postal address", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: ["What was your first job like?"],
    });
    const prompt = storyteller.prompts[0];
    const due = new Date("2026-04-01T14:00:00Z"); // 10:00 in New York
    const { id } = await pendingDelivery(prompt.id, "email", due);

    expect(await sendDelivery(context(), id, { now: new Date("2026-04-01T14:00:40Z") })).toBe("sent");

    const [email] = await outboxTo(storyteller.email!);
    expect(email.subject).toBe("Ravi has a question for you");
    expect(email.text_body).toContain("What was your first job like?");
    expect(email.text_body).toContain("12 Banyan Road, Pune 411001");
    expect(email.html_body).toContain("Record your answer");
    const recordUrl = email.text_body.match(/http:\/\/localhost:3000\/record\/([\w.-]+)/)!;
    expect(await verifyCapability(context().config, "record", recordUrl[1])).toBe(prompt.id);
    expect(email.html_body).toContain(recordUrl[0]);
    const unsubscribeUrl = email.headers["List-Unsubscribe"].slice(1, -1);
    expect(
      await verifyCapability(context().config, "unsubscribe", new URL(unsubscribeUrl).pathname.split("/").pop()!),
    ).toBe(storyteller.id);
    expect(email.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(email.html_body).toContain(unsubscribeUrl);
    // Answering by phone (on by default, through the simulator): the number and this prompt's code.
    const code = await inTransaction(database.db, (tx) => ensureAnswerCode(tx, context().config, prompt.id));
    const callIn = `No computer at hand? Call +1 555 555 0100 and enter ${formatAnswerCode(code)} to answer by phone.`;
    expect(email.text_body).toContain(`${recordUrl[0]}?lng=en\n\n${callIn}\n`);
    expect(email.html_body).toContain(callIn);

    expect(await deliveryOf(prompt.id)).toMatchObject({
      status: "sent",
      outbox_message_id: email.id,
      provider_message_id: `outbox-${email.id}`,
    });
    const sentPrompt = await database.db
      .selectFrom("prompts")
      .select("sent_at")
      .where("id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    expect(sentPrompt.sent_at).toEqual(new Date("2026-04-01T14:00:40Z"));
    const notes = await database.db.selectFrom("notifications").selectAll().where("user_id", "=", owner.id).execute();
    expect(notes).toEqual([
      expect.objectContaining({ type: "new", prompt_id: prompt.id, storyteller_id: storyteller.id }),
    ]);

    // A retry of the same job sends nothing more.
    expect(await sendDelivery(context(), id, { now: new Date("2026-04-01T14:05:00Z") })).toBe("nothing-to-do");
    expect(await outboxTo(storyteller.email!)).toHaveLength(1);
  });

  it("writes in the Storyteller's language and texts with the record link and STOP", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const hindi = await createStoryteller(database.db, { ownerId: owner.id, language: "hi", timeZone: "Asia/Kolkata" });
    const texter = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      phone: "+15555550177",
    });
    const now = new Date("2026-04-02T06:00:00Z"); // 11:30 Kolkata; 02:00 New York, so the text waits
    await sendDelivery(
      context(),
      (await pendingDelivery(hindi.prompts[0].id, "email", new Date("2026-04-02T04:30:00Z"))).id,
      { now },
    );
    const [hindiEmail] = await outboxTo(hindi.email!);
    expect(hindiEmail.subject).toBe("Ravi का आपके लिए एक सवाल है");
    // The pages behind the links open in Hindi too.
    expect(hindiEmail.text_body).toMatch(/\/record\/\S+\?lng=hi/);
    expect(hindiEmail.headers["List-Unsubscribe"]).toMatch(/\/unsubscribe\/\S+\?lng=hi>$/);

    const sms = await pendingDelivery(texter.prompts[0].id, "sms", new Date("2026-04-02T14:00:00Z"));
    expect(await sendDelivery(context(), sms.id, { now: new Date("2026-04-02T14:00:05Z") })).toBe("sent");
    const [text] = await outboxTo("+15555550177");
    expect(text.text_body).toMatch(
      /^Heirloom: Ravi asks: "Tell me about your first home\." Record your answer: http:\/\/localhost:3000\/record\/\S+ Or call \+1 555 555 0100 and enter \d{3}(?: \d{2,4})+\. Reply STOP to opt out\.$/,
    );
  });

  it("re-checks at send time: unsubscribed, undeliverable, no consent, opted out, paused, already sent, deleted", async () => {
    const owner = await createUser(database.db);
    const due = new Date("2026-04-03T14:00:00Z");
    const now = new Date("2026-04-03T14:00:30Z");
    const cases = [
      {
        reason: "unsubscribed",
        make: { ownerId: owner.id },
        after: (id: string) =>
          database.db.updateTable("storytellers").set({ unsubscribed_at: now }).where("id", "=", id).execute(),
      },
      {
        reason: "email undeliverable",
        make: { ownerId: owner.id },
        after: (id: string) =>
          database.db.updateTable("storytellers").set({ email_undeliverable_at: now }).where("id", "=", id).execute(),
      },
      {
        reason: "waiting for consent",
        make: { ownerId: owner.id, deliveryMethod: "sms" as const, smsConsent: "requested" as const },
        after: async () => {},
      },
      {
        reason: "opted out",
        make: { ownerId: owner.id, deliveryMethod: "sms" as const, smsConsent: "revoked" as const },
        after: async () => {},
      },
      {
        reason: "paused",
        make: { ownerId: owner.id },
        after: (id: string) =>
          database.db.updateTable("schedules").set({ paused_at: now }).where("storyteller_id", "=", id).execute(),
      },
    ];
    for (const c of cases) {
      const storyteller = await createStoryteller(database.db, c.make);
      const { id } = await pendingDelivery(storyteller.prompts[0].id, c.make.deliveryMethod ?? "email", due);
      await c.after(storyteller.id);
      expect(await sendDelivery(context(), id, { now })).toBe("cancelled");
      expect(await deliveryOf(storyteller.prompts[0].id)).toMatchObject({ status: "cancelled", error: c.reason });
      const prompt = await database.db
        .selectFrom("prompts")
        .select("sent_at")
        .where("id", "=", storyteller.prompts[0].id)
        .executeTakeFirstOrThrow();
      expect(prompt.sent_at).toBeNull();
    }
    const deleted = await createStoryteller(database.db, { ownerId: owner.id });
    const { id } = await pendingDelivery(deleted.prompts[0].id, "email", due);
    await database.db.deleteFrom("prompts").where("id", "=", deleted.prompts[0].id).execute();
    expect(await sendDelivery(context(), id, { now })).toBe("nothing-to-do");
    expect(await database.db.selectFrom("outbox_messages").select("id").execute()).toEqual([]);
  });

  it("cancels a WhatsApp question, sending nothing, on a site whose Twilio has no WhatsApp sender", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "whatsapp",
      phone: "+919812345678",
      smsConsent: "granted",
    });
    const { id } = await createDelivery(database.db, {
      promptId: storyteller.prompts[0].id,
      channel: "whatsapp",
      scheduledFor: new Date("2026-04-03T06:00:00Z"),
    });
    const twilioWithoutWhatsApp = makeTestContext(database, {
      TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
      TWILIO_AUTH_TOKEN: "x".repeat(20),
      TWILIO_FROM_NUMBER: "+15555550100",
    });
    expect(twilioWithoutWhatsApp.config.whatsappOn).toBe(false);
    const now = new Date("2026-04-03T06:00:30Z"); // 11:30 in Kolkata
    expect(await sendDelivery(twilioWithoutWhatsApp, id, { now })).toBe("cancelled");
    expect(await deliveryOf(storyteller.prompts[0].id)).toMatchObject({
      status: "cancelled",
      error: "WhatsApp not available",
    });
    expect(await outboxTo("+919812345678")).toEqual([]);
  });

  it("after five hours with the worker down, sends late only inside 08:00–21:00 local and moves the rest to the window", async () => {
    const owner = await createUser(database.db);
    const down = new Date("2026-10-05T12:00:00Z");
    const back = new Date("2026-10-05T17:00:00Z");
    // Daily in New York: 10:00 EDT = 14:00 UTC fell inside the outage.
    const newYork = await createStoryteller(database.db, {
      ownerId: owner.id,
      nextSendAt: new Date("2026-10-05T14:00:00Z"),
      prompts: ["Question for New York", "Another one for later"],
    });
    // Honolulu's 10:00 (20:00 UTC) is still ahead: not due.
    const honolulu = await createStoryteller(database.db, {
      ownerId: owner.id,
      timeZone: "Pacific/Honolulu",
      nextSendAt: new Date("2026-10-05T20:00:00Z"),
    });
    // "Send now" for a text in Kolkata at 18:00 local, just after the worker died: by 22:30 local it must wait.
    const kolkataText = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      timeZone: "Asia/Kolkata",
      phone: "+15555550188",
    });
    await queueSendNow(database.db, kolkataText.prompts[0].id, new Date("2026-10-05T12:30:00Z"));
    // A London delivery planned for 10:00 whose job only runs now, at 18:00 local (late, same day).
    const london = await createStoryteller(database.db, { ownerId: owner.id, timeZone: "Europe/London" });
    await pendingDelivery(london.prompts[0].id, "email", new Date("2026-10-05T09:00:00Z"));
    // A Regina delivery planned for yesterday's 10:00: a new day, so it waits for today's... next 10:00.
    const regina = await createStoryteller(database.db, { ownerId: owner.id, timeZone: "America/Regina" });
    await pendingDelivery(regina.prompts[0].id, "email", new Date("2026-10-04T16:00:00Z"));

    await runSchedulerTick(context(), back);
    const outcomes = new Map<string, string>();
    const rows = await database.db
      .selectFrom("deliveries")
      .innerJoin("prompts", "prompts.id", "deliveries.prompt_id")
      .select(["deliveries.id", "prompts.storyteller_id"])
      .execute();
    for (const row of rows) {
      const job = (await jobsFor(database.db, "delivery__send")).find((j) => j.payload.deliveryId === row.id);
      outcomes.set(
        row.storyteller_id,
        await sendDelivery(context(), row.id, { now: back, sendNow: Boolean(job?.payload.sendNow) }),
      );
    }
    expect(Object.fromEntries(outcomes)).toEqual({
      [newYork.id]: "sent",
      [kolkataText.id]: "deferred",
      [london.id]: "sent",
      [regina.id]: "deferred",
    });
    expect(outcomes.has(honolulu.id)).toBe(false);

    // Everything that went out went out inside its Storyteller's window.
    expect(localTime(back, "America/New_York")).toBe("2026-10-05 13:00");
    expect(localTime(back, "Europe/London")).toBe("2026-10-05 18:00");
    // The text waits for 08:00 in Kolkata; Regina's for 10:00 on the 6th (it is 11:00 there now).
    const kolkata = await deliveryOf(kolkataText.prompts[0].id);
    expect(localTime(kolkata.scheduled_for, "Asia/Kolkata")).toBe("2026-10-06 08:00");
    const reginaRow = await deliveryOf(regina.prompts[0].id);
    expect(localTime(reginaRow.scheduled_for, "America/Regina")).toBe("2026-10-06 10:00");
    const deferredJobs = (await jobsFor(database.db, "delivery__send")).filter((j) =>
      [kolkata.id, reginaRow.id].includes(String(j.payload.deliveryId)),
    );
    expect(deferredJobs.map((j) => j.run_at.toISOString()).sort()).toEqual(
      [kolkata.scheduled_for.toISOString(), reginaRow.scheduled_for.toISOString()].sort(),
    );
    expect(await outboxTo("+15555550188")).toEqual([]);
    // No catching up: New York got one question, the next is tomorrow.
    const nyMessages = await outboxTo(newYork.email!);
    expect(nyMessages).toHaveLength(1);
    expect(localTime(down, "America/New_York")).toBe("2026-10-05 08:00");
  });

  it("retries a provider's 5xx and sends once; fails at once on a 4xx and shows the owner why", async () => {
    let failuresLeft = 1;
    const accepted: string[] = [];
    const api = await startFakeApi((request, res) => {
      // The retry first asks whether the failed attempt went through (it did not).
      if (request.method === "GET") return sendJson(res, 200, { TotalCount: 0, Messages: [] });
      const body = JSON.parse(request.body);
      if (body.To === "refused@example.com")
        return sendJson(res, 422, {
          ErrorCode: 406,
          Message: "You tried to send to recipient(s) that have been marked as inactive.",
        });
      if (failuresLeft-- > 0) return sendJson(res, 503, { ErrorCode: 0, Message: "Service unavailable" });
      accepted.push(body.To);
      sendJson(res, 200, {
        To: body.To,
        SubmittedAt: new Date().toISOString(),
        MessageID: `pm-${accepted.length}`,
        ErrorCode: 0,
        Message: "OK",
      });
    });
    closeApi = api.close;
    const mail = createPostmarkMail({
      POSTMARK_SERVER_TOKEN: "server-token",
      POSTMARK_API_URL: api.url,
      MAIL_FROM: "Heirloom <hello@heirloom.example>",
    });
    const ctx = { ...context(), mail };
    const runJobs = async () => {
      await runOnce({ pgPool: database.pool, taskList: createTaskList(ctx) });
      await waitForJobsToSettle(database.db);
    };

    const owner = await createUser(database.db);
    const flaky = await createStoryteller(database.db, { ownerId: owner.id, email: "flaky@example.com" });
    const refused = await createStoryteller(database.db, { ownerId: owner.id, email: "refused@example.com" });
    await queueSendNow(database.db, flaky.prompts[0].id);
    await queueSendNow(database.db, refused.prompts[0].id);

    allowConsoleErrors(5); // graphile-worker logs the failed attempt
    await runJobs();
    const afterFirst = await jobsFor(database.db, "delivery__send");
    expect(afterFirst).toHaveLength(1); // the 4xx one finished; the 5xx one waits to retry
    expect(afterFirst[0]).toMatchObject({ attempts: 1 });
    expect(afterFirst[0].last_error).toContain("Service unavailable");
    expect(await deliveryOf(flaky.prompts[0].id)).toMatchObject({ status: "sending" });

    await makeJobsDue(database.db, "delivery__send");
    await runJobs();
    expect(accepted).toEqual(["flaky@example.com"]);
    expect(await deliveryOf(flaky.prompts[0].id)).toMatchObject({ status: "sent", provider_message_id: "pm-1" });
    expect(await jobsFor(database.db, "delivery__send")).toEqual([]);

    const view = await getStorytellerView(database.db, owner.id, refused.id);
    expect(view?.sent[0]).toMatchObject({ delivery_status: "failed" });
    expect(view?.sent[0].delivery_error).toMatch(/^Postmark 422: .*inactive/);
  });

  it("send now holds a text back outside 08:00–21:00 but not an email", async () => {
    const owner = await createUser(database.db);
    const texter = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      phone: "+15555550199",
    });
    const emailer = await createStoryteller(database.db, { ownerId: owner.id });
    const lateNight = new Date("2026-04-05T03:00:00Z"); // 23:00 in New York
    // The text waits for 08:00 there (12:00 UTC), and says so; the email goes now.
    expect(await queueSendNow(database.db, texter.prompts[0].id, lateNight)).toEqual({
      outcome: "queued",
      heldUntil: new Date("2026-04-05T12:00:00Z"),
      nickname: "Nani",
      timeZone: "America/New_York",
    });
    expect(await queueSendNow(database.db, emailer.prompts[0].id, lateNight)).toMatchObject({
      outcome: "queued",
      heldUntil: null,
    });
    // The held text is no longer in the queue: the Sent tab shows it first, due at 08:00 there.
    const view = await getStorytellerView(database.db, owner.id, texter.id);
    expect(view?.queued.map((p) => p.id)).not.toContain(texter.prompts[0].id);
    expect(view?.sent[0]).toMatchObject({
      id: texter.prompts[0].id,
      sent_at: null,
      delivery_due: new Date("2026-04-05T12:00:00Z"),
    });
    expect(view?.lastSent).toBeNull();
    // Its job runs then, not at once.
    const heldId = (await deliveryOf(texter.prompts[0].id)).id;
    const job = (await jobsFor(database.db, "delivery__send")).find((j) => j.payload.deliveryId === heldId);
    expect(job?.run_at).toEqual(new Date("2026-04-05T12:00:00Z"));
    expect(
      await sendDelivery(context(), (await deliveryOf(texter.prompts[0].id)).id, { sendNow: true, now: lateNight }),
    ).toBe("deferred");
    expect(
      await sendDelivery(context(), (await deliveryOf(emailer.prompts[0].id)).id, { sendNow: true, now: lateNight }),
    ).toBe("sent");
    // Nothing is even queued for someone who cannot receive.
    const waiting = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      smsConsent: "requested",
    });
    expect(await queueSendNow(database.db, waiting.prompts[0].id, lateNight)).toEqual({ outcome: "unreachable" });
    expect(
      await database.db.selectFrom("deliveries").select("id").where("prompt_id", "=", waiting.prompts[0].id).execute(),
    ).toEqual([]);
    expect(localTime((await deliveryOf(texter.prompts[0].id)).scheduled_for, "America/New_York")).toBe(
      "2026-04-05 08:00",
    );
  });

  it("re-sends the record link when the owner asks for a new recording, without marking anything new", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = storyteller.prompts[0];
    const sentAt = new Date("2026-04-01T14:00:40Z");
    await database.db
      .updateTable("prompts")
      .set({ sent_at: sentAt, rerecord_requested_at: new Date("2026-04-03T10:00:00Z") })
      .where("id", "=", prompt.id)
      .execute();
    const resend = await createDelivery(database.db, { promptId: prompt.id, channel: "email", purpose: "resend" });

    expect(await sendDelivery(context(), resend.id, { sendNow: true, now: new Date("2026-04-03T14:00:00Z") })).toBe(
      "sent",
    );
    const [email] = await outboxTo(storyteller.email!);
    expect(email.text_body).toContain("/record/");
    const after = await database.db
      .selectFrom("prompts")
      .select("sent_at")
      .where("id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    expect(after.sent_at).toEqual(sentAt);
    expect(
      await database.db.selectFrom("notifications").select("type").where("user_id", "=", owner.id).execute(),
    ).toEqual([]);

    // Once the new recording is in (the flag cleared), a leftover resend sends nothing.
    await database.db.updateTable("prompts").set({ rerecord_requested_at: null }).where("id", "=", prompt.id).execute();
    await database.db.updateTable("deliveries").set({ status: "pending" }).where("id", "=", resend.id).execute();
    expect(await sendDelivery(context(), resend.id, { sendNow: true, now: new Date("2026-04-04T14:00:00Z") })).toBe(
      "cancelled",
    );
    expect(await outboxTo(storyteller.email!)).toHaveLength(1);
  });
});
