import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { DateTime } from "luxon";
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { classifyReply, requestSmsConsent } from "~/models/sms-consent.server";
import { createOutboxMail } from "~/services/mail.server";
import { queueEmail, queueSms, sendOutboxMessage } from "~/services/outbox.server";
import type { SmsService } from "~/services/sms.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import {
  createDelivery,
  createPrompt,
  createStoryteller,
  createUser,
  type StorytellerOptions,
} from "../../tests/factories";
import { action as postmarkAction } from "./webhooks.postmark";
import { action as inboundAction } from "./webhooks.twilio.inbound";
import { action as statusAction } from "./webhooks.twilio.status";

const database = useTestDatabase();

const APP_URL = "https://heirloom.example";
const AUTH_TOKEN = "auth-token-1234567890";
const twilioEnv = {
  TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
  TWILIO_AUTH_TOKEN: AUTH_TOKEN,
  TWILIO_FROM_NUMBER: "+15555550100",
  APP_URL,
};
const WEBHOOK_SECRET = "webhook-secret-123456";

const twilioContext = () => makeTestContext(database, twilioEnv);
const postmarkContext = () => makeTestContext(database, { POSTMARK_WEBHOOK_SECRET: WEBHOOK_SECRET });

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString("hex")}`;
/** A fresh E.164 number per call, so tests never share a phone. */
const newPhone = () => `+1555${String(1_000_000 + Math.floor(Math.random() * 8_999_999)).slice(0, 7)}`;

/** A Storyteller who takes texts at `phone`, not yet asked for consent (as one is when added). */
async function textingStoryteller(options: StorytellerOptions & { phone: string }) {
  const { id } = await createStoryteller(database.db, { deliveryMethod: "sms", smsConsent: "none", ...options });
  return id;
}

const storytellerRow = (id: string) =>
  database.db.selectFrom("storytellers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const consentRows = (id: string) =>
  database.db.selectFrom("sms_consents").selectAll().where("storyteller_id", "=", id).orderBy("created_at").execute();
const outboxTo = (address: string) =>
  database.db
    .selectFrom("outbox_messages")
    .selectAll()
    .where("to_address", "=", address)
    .orderBy("created_at")
    .execute();

function twilioRequest(
  path: string,
  params: Record<string, string>,
  options: { signature?: string | null; signedUrl?: string } = {},
) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  const signature =
    options.signature === undefined
      ? twilio.getExpectedTwilioSignature(AUTH_TOKEN, options.signedUrl ?? `${APP_URL}${path}`, params)
      : options.signature;
  if (signature !== null) headers["X-Twilio-Signature"] = signature;
  // As the app sees it behind a proxy: the signature is checked against APP_URL, not this host.
  return new Request(`http://localhost:3000${path}`, { method: "POST", headers, body: new URLSearchParams(params) });
}

const inbound = (
  params: Record<string, string>,
  options: Parameters<typeof twilioRequest>[2] = {},
  context = twilioContext(),
) =>
  inboundAction({
    request: twilioRequest("/webhooks/twilio/inbound", params, options),
    context,
    params: {},
    ...routeArgs,
  });

const text = (from: string, body: string) =>
  inbound({
    From: from,
    Body: body,
    To: twilioEnv.TWILIO_FROM_NUMBER,
    MessageSid: "SM" + randomBytes(16).toString("hex"),
    AccountSid: twilioEnv.TWILIO_ACCOUNT_SID,
  });

/** The status of a Response, whether returned or thrown. */
async function statusOf(promise: Promise<unknown>) {
  try {
    return ((await promise) as Response).status;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

const twimlBody = (message?: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${message ? `<Message>${message}</Message>` : ""}</Response>`;
const STOPPED = "Heirloom: You are unsubscribed and will get no more texts. Reply START to subscribe again.";

describe("Twilio inbound webhook", () => {
  it("refuses a request without a signature, with a forged one, and one signed for another URL, changing nothing", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const id = await textingStoryteller({ ownerId: owner.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, id);
    const params = { From: phone, Body: "STOP" };

    expect(await statusOf(inbound(params, { signature: null }))).toBe(403);
    expect(await statusOf(inbound(params, { signature: "bm90IGEgcmVhbCBzaWduYXR1cmU=" }))).toBe(403);
    // Signed with the wrong auth token.
    const wrongKey = twilio.getExpectedTwilioSignature(
      "another-auth-token-123",
      `${APP_URL}/webhooks/twilio/inbound`,
      params,
    );
    expect(await statusOf(inbound(params, { signature: wrongKey }))).toBe(403);
    // A real signature, but for another of our URLs and for another host.
    expect(await statusOf(inbound(params, { signedUrl: `${APP_URL}/webhooks/twilio/status` }))).toBe(403);
    expect(await statusOf(inbound(params, { signedUrl: "https://evil.example/webhooks/twilio/inbound" }))).toBe(403);
    // A real signature over other parameters (the body was changed in transit).
    const signedForStart = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${APP_URL}/webhooks/twilio/inbound`, {
      From: phone,
      Body: "START",
    });
    expect(await statusOf(inbound(params, { signature: signedForStart }))).toBe(403);

    expect((await storytellerRow(id)).sms_consent).toBe("requested");
    expect((await consentRows(id)).map((r) => r.status)).toEqual(["requested"]);
  });

  it("is a 404 while Twilio is not configured, even for a correctly signed request", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const id = await textingStoryteller({ ownerId: owner.id, phone, smsConsent: "granted" });
    expect(await statusOf(inbound({ From: phone, Body: "STOP" }, {}, makeTestContext(database)))).toBe(404);
    expect((await storytellerRow(id)).sms_consent).toBe("granted");
    expect(await consentRows(id)).toEqual([]);
  });

  it("STOP from a number two Storytellers share revokes both, records each answer and confirms in TwiML", async () => {
    const ownerA = await createUser(database.db, { first_name: "Priya" });
    const ownerB = await createUser(database.db, { first_name: "Rahul" });
    const phone = newPhone();
    const a = await textingStoryteller({ ownerId: ownerA.id, phone });
    const b = await textingStoryteller({ ownerId: ownerB.id, phone, frequency: "monthly" });
    const other = await textingStoryteller({ ownerId: ownerA.id, phone: newPhone() });
    const config = twilioContext().config;
    for (const id of [a, b, other]) await requestSmsConsent(database.db, config, id);
    const [requestA] = await consentRows(a);
    const [requestB] = await consentRows(b);
    expect(requestA.text_shown).toContain("Priya");
    expect(requestB.text_shown).toContain("Rahul");

    const before = Date.now();
    const response = (await text(phone, "STOP")) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/xml/);
    expect(await response.text()).toBe(twimlBody(STOPPED));

    for (const [id, request] of [
      [a, requestA],
      [b, requestB],
    ] as const) {
      expect((await storytellerRow(id)).sms_consent).toBe("revoked");
      const replies = (await consentRows(id)).filter((r) => r.reply !== null);
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatchObject({
        status: "revoked",
        reply: "STOP",
        phone_e164: phone,
        text_shown: request.text_shown,
      });
      expect(replies[0].replied_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    // Another number's Storyteller is untouched.
    expect((await storytellerRow(other)).sms_consent).toBe("requested");
    expect(await consentRows(other)).toHaveLength(1);
  });

  it("YES after STOP grants consent again and thanks the Storyteller in TwiML", async () => {
    const owner = await createUser(database.db, { first_name: "Meera" });
    const phone = newPhone();
    const id = await textingStoryteller({ ownerId: owner.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, id);
    const [request] = await consentRows(id);
    await text(phone, "STOP");
    expect((await storytellerRow(id)).sms_consent).toBe("revoked");

    const response = (await text(phone, "YES")) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/^text\/xml/);
    expect(await response.text()).toBe(
      twimlBody(
        "Heirloom: Thank you! You will get questions from Meera by text. Reply HELP for help, STOP to opt out. Msg &amp; data rates may apply.",
      ),
    );
    expect((await storytellerRow(id)).sms_consent).toBe("granted");
    const rows = await consentRows(id);
    expect(rows.map((r) => [r.status, r.reply])).toEqual([
      ["requested", null],
      ["revoked", "STOP"],
      ["granted", "YES"],
    ]);
    expect(rows[2].text_shown).toBe(request.text_shown);
    expect(rows[2].replied_at).toBeInstanceOf(Date);
  });

  it.each(["unsubscribe", " Stop ", "QUIT", "stop.", "Cancel", "END", "stopall", "optout", "revoke"])(
    "treats %j as STOP",
    async (body) => {
      expect(classifyReply(body)).toBe("stop");
      const owner = await createUser(database.db);
      const phone = newPhone();
      const id = await textingStoryteller({ ownerId: owner.id, phone, smsConsent: "granted" });
      const response = (await text(phone, body)) as Response;
      expect(await response.text()).toBe(twimlBody(STOPPED));
      expect((await storytellerRow(id)).sms_consent).toBe("revoked");
      const [row] = await consentRows(id);
      expect(row).toMatchObject({ status: "revoked", reply: body.trim() });
    },
  );

  it("classifies the other keywords, and sentences that only contain them as other", () => {
    for (const body of ["YES", "yes", "Y", "start", "UNSTOP", "Yes!"]) expect(classifyReply(body)).toBe("start");
    for (const body of ["HELP", "help", "Info"]) expect(classifyReply(body)).toBe("help");
    for (const body of ["Please stop", "yes please", "", "   ", "STOP it", "helpful"])
      expect(classifyReply(body)).toBe("other");
  });

  it("HELP gets the contact page in TwiML and changes no consent", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const id = await textingStoryteller({ ownerId: owner.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, id);

    const response = (await text(phone, "HELP")) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/^text\/xml/);
    const body = await response.text();
    expect(body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Message>.*<\/Message><\/Response>$/);
    expect(body).toContain(`${APP_URL}/contact-us`);
    expect(body).toContain("STOP");
    expect((await storytellerRow(id)).sms_consent).toBe("requested");
    expect((await consentRows(id)).map((r) => r.status)).toEqual(["requested"]);
  });

  it("answers any other text with an empty <Response/> and changes nothing", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const id = await textingStoryteller({ ownerId: owner.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, id);

    const response = (await text(phone, "Thank you beta, I will answer tomorrow")) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/xml/);
    expect(await response.text()).toBe(twimlBody());
    expect((await storytellerRow(id)).sms_consent).toBe("requested");
    expect(await consentRows(id)).toHaveLength(1);
  });

  it("confirms STOP from a number no Storyteller uses, and keeps it on record", async () => {
    const phone = newPhone();
    const response = (await text(phone, "STOP")) as Response;
    expect(await response.text()).toBe(twimlBody(STOPPED));
    const rows = await database.db
      .selectFrom("sms_consents")
      .select(["storyteller_id", "status", "reply"])
      .where("phone_e164", "=", phone)
      .execute();
    expect(rows).toEqual([{ storyteller_id: null, status: "revoked", reply: "STOP" }]);
  });

  it("is a 400 without From or Body", async () => {
    expect(await statusOf(inbound({ Body: "STOP" }))).toBe(400);
    expect(await statusOf(inbound({ From: newPhone() }))).toBe(400);
  });

  const signedText = (fields: Record<string, string>) =>
    inbound({
      To: twilioEnv.TWILIO_FROM_NUMBER,
      MessageSid: "SM" + randomBytes(16).toString("hex"),
      AccountSid: twilioEnv.TWILIO_ACCOUNT_SID,
      Body: "STOP",
      ...fields,
    });
  const everyConsent = () => database.db.selectFrom("sms_consents").select("phone_e164").execute();

  it("stores nothing for a signed text whose From or To is not an E.164 number, or with no MessageSid", async () => {
    const before = await everyConsent();
    for (const fields of <Record<string, string>[]>[
      { From: "not-a-number" },
      { From: "5555550123" },
      { From: "+1 555 555 0123" },
      { From: "+1555" },
      { From: newPhone(), To: "Heirloom" },
      { From: newPhone(), MessageSid: "" },
      { From: newPhone(), MessageSid: "SM123" },
    ])
      expect(await statusOf(signedText(fields)), JSON.stringify(fields)).toBe(400);
    expect(await everyConsent()).toEqual(before);
  });

  it("handles a replayed STOP once: one consent row, however often Twilio (or anyone) sends it", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const id = await textingStoryteller({ ownerId: owner.id, phone, smsConsent: "granted" });
    const stop = { From: phone, MessageSid: "SM" + randomBytes(16).toString("hex") };
    expect(await statusOf(signedText(stop))).toBe(200);
    expect(await statusOf(signedText(stop))).toBe(200);
    expect(await statusOf(signedText(stop))).toBe(200);
    expect((await consentRows(id)).map((row) => row.status)).toEqual(["revoked"]);
    // Another STOP (its own MessageSid) is another event, kept as such.
    expect(await statusOf(signedText({ From: phone }))).toBe(200);
    expect((await consentRows(id)).map((row) => row.status)).toEqual(["revoked", "revoked"]);
  });
});

describe("requestSmsConsent", () => {
  const jobFor = async (messageId: string) =>
    (
      await sql<{ run_at: Date }>`
        select j.run_at from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'outbox__send' and j.payload->>'messageId' = ${messageId}`.execute(database.db)
    ).rows;

  it("records a requested consent with the exact text queued, sent once the Storyteller's day has begun", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const phone = newPhone();
    const id = await textingStoryteller({
      ownerId: owner.id,
      phone,
      timeZone: "America/New_York",
      frequency: "weekly",
    });
    // 23:00 in New York: the text waits for 08:00 the next morning.
    const now = new Date("2025-03-10T03:00:00Z");
    await requestSmsConsent(database.db, twilioContext().config, id, now);

    expect((await storytellerRow(id)).sms_consent).toBe("requested");
    const consents = await consentRows(id);
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({ status: "requested", phone_e164: phone, reply: null, replied_at: null });
    const messages = await outboxTo(phone);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: "sms", status: "queued", text_body: consents[0].text_shown });
    const consentText = consents[0].text_shown;
    for (const part of ["Heirloom", "Priya", "every week", "YES", "HELP", "STOP", "Msg & data rates may apply"])
      expect(consentText).toContain(part);

    const jobs = await jobFor(messages[0].id);
    expect(jobs).toHaveLength(1);
    const local = DateTime.fromJSDate(jobs[0].run_at, { zone: "America/New_York" });
    expect(local.hour).toBeGreaterThanOrEqual(8);
    expect(local.hour).toBeLessThan(21);
    expect(jobs[0].run_at.toISOString()).toBe("2025-03-10T12:00:00.000Z"); // 08:00 EDT
  });

  it("queues the text for right away inside the window", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const phone = newPhone();
    const id = await textingStoryteller({ ownerId: owner.id, phone, timeZone: "America/Los_Angeles" });
    const now = new Date("2025-06-02T18:30:00Z"); // 11:30 in Los Angeles
    await requestSmsConsent(database.db, twilioContext().config, id, now);
    const [message] = await outboxTo(phone);
    const [job] = await jobFor(message.id);
    expect(job.run_at.toISOString()).toBe(now.toISOString());
  });

  it("writes to a Hindi Storyteller in Hindi, in their time zone", async () => {
    const owner = await createUser(database.db, { first_name: "Rahul" });
    const phone = newPhone();
    const id = await textingStoryteller({
      ownerId: owner.id,
      phone,
      language: "hi",
      timeZone: "Asia/Kolkata",
      frequency: "monthly",
    });
    const now = new Date("2025-03-10T17:00:00Z"); // 22:30 in Kolkata
    await requestSmsConsent(database.db, twilioContext().config, id, now);

    const [consent] = await consentRows(id);
    expect(consent.text_shown).toContain("Rahul");
    expect(consent.text_shown).toContain("हर महीने");
    expect(consent.text_shown).toContain("सहमति के लिए YES");
    expect(consent.text_shown).toContain("STOP");
    expect(consent.text_shown).toContain("HELP");
    expect(consent.text_shown).toContain("संदेश और डेटा शुल्क लग सकते हैं");
    expect(consent.text_shown).not.toContain("Reply YES");
    const [message] = await outboxTo(phone);
    expect(message.text_body).toBe(consent.text_shown);
    const [job] = await jobFor(message.id);
    const local = DateTime.fromJSDate(job.run_at, { zone: "Asia/Kolkata" });
    expect(local.hour).toBeGreaterThanOrEqual(8);
    expect(local.hour).toBeLessThan(21);
    expect(job.run_at.toISOString()).toBe("2025-03-11T02:30:00.000Z"); // 08:00 IST
  });

  it("does not text a number that said STOP, and marks the new Storyteller revoked", async () => {
    const ownerA = await createUser(database.db, { first_name: "Priya" });
    const ownerB = await createUser(database.db, { first_name: "Rahul" });
    const phone = newPhone();
    const first = await textingStoryteller({ ownerId: ownerA.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, first);
    await text(phone, "Stop");
    const textsBefore = await outboxTo(phone);
    expect(textsBefore).toHaveLength(1);

    const second = await textingStoryteller({ ownerId: ownerB.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, second);
    expect((await storytellerRow(second)).sms_consent).toBe("revoked");
    expect(await consentRows(second)).toEqual([]);
    expect(await outboxTo(phone)).toHaveLength(1);

    // Asking again for the first one sends nothing either.
    await requestSmsConsent(database.db, twilioContext().config, first);
    expect((await storytellerRow(first)).sms_consent).toBe("revoked");
    expect(await outboxTo(phone)).toHaveLength(1);

    // Once the number says START, it can be asked again.
    await text(phone, "START");
    await requestSmsConsent(database.db, twilioContext().config, second);
    expect((await storytellerRow(second)).sms_consent).toBe("requested");
    expect(await outboxTo(phone)).toHaveLength(2);
  });

  // BUG: a number's STOP lives only in sms_consents rows that cascade away with their Storyteller
  // (storyteller_id ... ON DELETE CASCADE), so deleting the Storyteller forgets the opt-out, and the
  // number is texted again when anyone adds it.
  it("still honours a STOP after the Storyteller who sent it was deleted", async () => {
    const ownerA = await createUser(database.db, { first_name: "Priya" });
    const ownerB = await createUser(database.db, { first_name: "Rahul" });
    const phone = newPhone();
    const first = await textingStoryteller({ ownerId: ownerA.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, first);
    await text(phone, "STOP");
    await database.db.deleteFrom("storytellers").where("id", "=", first).execute(); // as dashboard.recipient.$id_.edit does

    const second = await textingStoryteller({ ownerId: ownerB.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, second);
    expect(await outboxTo(phone)).toHaveLength(1); // only the first consent request
    expect((await storytellerRow(second)).sms_consent).toBe("revoked");
  });

  // BUG (same cause): a STOP from a number no Storyteller has yet is confirmed but not recorded.
  it("honours a STOP sent before any Storyteller had the number", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const phone = newPhone();
    await text(phone, "STOP");
    const id = await textingStoryteller({ ownerId: owner.id, phone });
    await requestSmsConsent(database.db, twilioContext().config, id);
    expect(await outboxTo(phone)).toEqual([]);
    expect((await storytellerRow(id)).sms_consent).toBe("revoked");
  });

  it("does nothing for an email Storyteller", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const phone = newPhone();
    const { id } = await createStoryteller(database.db, {
      ownerId: owner.id,
      phone,
      email: `e-${unique()}@example.com`,
      deliveryMethod: "email",
    });
    await requestSmsConsent(database.db, twilioContext().config, id);
    expect((await storytellerRow(id)).sms_consent).toBe("none");
    expect(await consentRows(id)).toEqual([]);
    expect(await outboxTo(phone)).toEqual([]);
  });
});

describe("Twilio status callback", () => {
  /** A prompt sent by text: its delivery rides on an outbox message. */
  async function sentText(state: { status: "sending" | "sent"; sid: string | null }) {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const storytellerId = await textingStoryteller({ ownerId: owner.id, phone });
    const prompt = await createPrompt(database.db, {
      storytellerId,
      text: "What was your first home like?",
      sentAt: new Date(),
    });
    const messageId = await queueSms(
      database.db,
      { to: phone, text: "What was your first home like? https://heirloom.example/record/x" },
      { withJob: false },
    );
    await database.db
      .updateTable("outbox_messages")
      .set({
        status: state.status,
        claimed_at: new Date(),
        provider: state.sid ? "twilio" : null,
        provider_message_id: state.sid,
        sent_at: state.status === "sent" ? new Date() : null,
      })
      .where("id", "=", messageId)
      .execute();
    const delivery = await createDelivery(database.db, {
      promptId: prompt.id,
      channel: "sms",
      status: state.status,
      outboxMessageId: messageId,
      providerMessageId: state.sid,
      sentAt: state.status === "sent" ? new Date() : null,
    });
    return { messageId, deliveryId: delivery.id };
  }

  const message = (id: string) =>
    database.db.selectFrom("outbox_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const delivery = (id: string) =>
    database.db.selectFrom("deliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const callback = (
    messageId: string,
    params: Record<string, string>,
    options: Parameters<typeof twilioRequest>[2] = {},
  ) =>
    statusAction({
      request: twilioRequest(`/webhooks/twilio/status?m=${messageId}`, params, options),
      context: twilioContext(),
      params: {},
      ...routeArgs,
    });
  const newSid = () => "SM" + randomBytes(16).toString("hex");

  it("marks an undelivered text and its delivery failed, with Twilio's error code", async () => {
    const sid = newSid();
    const { messageId, deliveryId } = await sentText({ status: "sent", sid });
    const response = (await callback(messageId, {
      MessageSid: sid,
      MessageStatus: "undelivered",
      ErrorCode: "30003",
      AccountSid: twilioEnv.TWILIO_ACCOUNT_SID,
    })) as Response;
    expect(response.status).toBe(204);

    const m = await message(messageId);
    expect(m.status).toBe("failed");
    expect(m.provider_message_id).toBe(sid);
    expect(m.error).toContain("30003");
    const d = await delivery(deliveryId);
    expect(d.status).toBe("failed");
    expect(d.error).toContain("30003");
    expect(d.error).toContain("undelivered");
  });

  it("reconciles a text stuck in sending (the worker died after Twilio took it) as sent", async () => {
    const sid = newSid();
    const { messageId, deliveryId } = await sentText({ status: "sending", sid: null });
    const response = (await callback(messageId, { MessageSid: sid, MessageStatus: "sent" })) as Response;
    expect(response.status).toBe(204);

    const m = await message(messageId);
    expect(m).toMatchObject({ status: "sent", provider_message_id: sid, error: null, text_body: "" });
    expect(m.sent_at).toBeInstanceOf(Date);
    const d = await delivery(deliveryId);
    expect(d).toMatchObject({ status: "sent", provider_message_id: sid });
    expect(d.sent_at).toBeInstanceOf(Date);
  });

  it("leaves a sent text alone when it is delivered", async () => {
    const sid = newSid();
    const { messageId, deliveryId } = await sentText({ status: "sent", sid });
    const before = await message(messageId);
    await callback(messageId, { MessageSid: sid, MessageStatus: "delivered" });
    expect(await message(messageId)).toEqual(before);
    expect((await delivery(deliveryId)).status).toBe("sent");
  });

  it("ignores a report about another Twilio message than the one recorded", async () => {
    const sid = newSid();
    const { messageId, deliveryId } = await sentText({ status: "sent", sid });
    await callback(messageId, { MessageSid: newSid(), MessageStatus: "failed", ErrorCode: "30005" });
    expect((await message(messageId)).status).toBe("sent");
    expect((await delivery(deliveryId)).status).toBe("sent");
  });

  // BUG: sendOutboxMessage's markSent sets status "sent" unconditionally, so a failure callback that
  // lands between Twilio accepting the text and the worker recording it is overwritten.
  it("keeps a failure reported before the worker recorded the send", async () => {
    const sid = newSid();
    const { messageId, deliveryId } = await sentText({ status: "sending", sid: null });
    await database.db.updateTable("outbox_messages").set({ status: "queued" }).where("id", "=", messageId).execute();
    await database.db.updateTable("deliveries").set({ status: "sending" }).where("id", "=", deliveryId).execute();
    const sms: SmsService = {
      name: "twilio",
      async send(m) {
        // Twilio's callback overtakes its API answer.
        await callback(m.id, { MessageSid: sid, MessageStatus: "failed", ErrorCode: "30008" });
        return sid;
      },
      findSent: async () => null,
    };
    await sendOutboxMessage({ db: database.db, mail: createOutboxMail({ print: false }), sms }, messageId, {
      lastAttempt: false,
    });
    expect((await message(messageId)).status).toBe("failed");
    expect((await delivery(deliveryId)).status).toBe("failed");
  });

  it("refuses an unsigned or forged callback, changing nothing", async () => {
    const sid = newSid();
    const { messageId, deliveryId } = await sentText({ status: "sending", sid: null });
    const params = { MessageSid: sid, MessageStatus: "undelivered", ErrorCode: "30003" };
    expect(await statusOf(callback(messageId, params, { signature: null }))).toBe(403);
    // Signed for the same path without our ?m= (Twilio signs the full URL, query included).
    expect(await statusOf(callback(messageId, params, { signedUrl: `${APP_URL}/webhooks/twilio/status` }))).toBe(403);
    expect((await message(messageId)).status).toBe("sending");
    expect((await delivery(deliveryId)).status).toBe("sending");
  });
});

describe("Postmark webhook", () => {
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const postmarkRequest = (body: unknown, authorization: string | null = basic("postmark", WEBHOOK_SECRET)) =>
    new Request("http://localhost:3000/webhooks/postmark", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const post = (body: unknown, authorization?: string | null, context = postmarkContext()) =>
    postmarkAction({ request: postmarkRequest(body, authorization), context, params: {}, ...routeArgs });

  const bounce = (email: string, overrides: Record<string, unknown> = {}) => ({
    RecordType: "Bounce",
    ID: 4323372036,
    Type: "HardBounce",
    TypeCode: 1,
    Name: "Hard bounce",
    Tag: "",
    MessageID: "883953f4-6105-42a2-a16a-77a8eac79483",
    ServerID: 23,
    MessageStream: "outbound",
    Description: "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
    Details: "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
    Email: email,
    From: "hello@heirloom.example",
    BouncedAt: "2025-03-10T10:00:00Z",
    DumpAvailable: false,
    Inactive: true,
    CanActivate: true,
    Subject: "A question for you",
    ...overrides,
  });

  async function emailStoryteller(email: string) {
    const owner = await createUser(database.db);
    return (await createStoryteller(database.db, { ownerId: owner.id, email })).id;
  }
  const undeliverableAt = async (id: string) => (await storytellerRow(id)).email_undeliverable_at;

  it("is a 404 while no webhook secret is configured", async () => {
    const address = `nobody-${unique()}@example.com`;
    const id = await emailStoryteller(address);
    expect(await statusOf(post(bounce(address), undefined, makeTestContext(database)))).toBe(404);
    expect(await undeliverableAt(id)).toBeNull();
  });

  it("refuses a request without the shared secret", async () => {
    const address = `refused-${unique()}@example.com`;
    const id = await emailStoryteller(address);
    expect(await statusOf(post(bounce(address), null))).toBe(401);
    expect(await statusOf(post(bounce(address), basic("postmark", "wrong-secret-123456")))).toBe(401);
    expect(await statusOf(post(bounce(address), basic("postmark", WEBHOOK_SECRET + "x")))).toBe(401);
    expect(await statusOf(post(bounce(address), `Bearer ${WEBHOOK_SECRET}`))).toBe(401);
    expect(await statusOf(post(bounce(address), `Basic ${Buffer.from(WEBHOOK_SECRET).toString("base64")}`))).toBe(401);
    expect(await undeliverableAt(id)).toBeNull();
  });

  it("reads no more than a webhook's worth of an authenticated body: 413, nothing marked", async () => {
    const address = `oversize-${unique()}@example.com`;
    const id = await emailStoryteller(address);
    const big = bounce(address, { Details: "x".repeat(1024 * 1024) });
    expect(await statusOf(post(big))).toBe(413);
    // Without a Content-Length (chunked), the reading itself stops at the limit.
    const body = new Blob([JSON.stringify(big)]).stream();
    const chunked = new Request("http://localhost:3000/webhooks/postmark", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: basic("postmark", WEBHOOK_SECRET) },
      body,
      duplex: "half",
    } as RequestInit);
    expect(
      await statusOf(postmarkAction({ request: chunked, context: postmarkContext(), params: {}, ...routeArgs })),
    ).toBe(413);
    expect(await undeliverableAt(id)).toBeNull();
    // Unauthenticated, it is refused before a byte is read.
    expect(await statusOf(post(big, null))).toBe(401);
  });

  it("marks every Storyteller with a hard-bounced address undeliverable, whatever its letter case", async () => {
    const tag = unique();
    const lower = await emailStoryteller(`ann-${tag}@example.com`);
    const mixed = await emailStoryteller(`Ann-${tag}@Example.COM`);
    const bystander = await emailStoryteller(`bob-${tag}@example.com`);

    const response = (await post(bounce(`ANN-${tag}@EXAMPLE.com`, { MessageID: `pm-${tag}` }))) as Response;
    expect(response.status).toBe(204);
    const first = await undeliverableAt(lower);
    expect(first).toBeInstanceOf(Date);
    expect(await undeliverableAt(mixed)).toBeInstanceOf(Date);
    expect(await undeliverableAt(bystander)).toBeNull();

    // A second bounce keeps the first time.
    await post(bounce(`ann-${tag}@example.com`, { MessageID: `pm2-${tag}` }));
    expect(await undeliverableAt(lower)).toEqual(first);
  });

  it("marks the bounced message and its delivery failed, with the reason", async () => {
    const tag = unique();
    const address = `bounced-${tag}@example.com`;
    const storytellerId = await emailStoryteller(address);
    const prompt = await createPrompt(database.db, {
      storytellerId,
      text: "Tell me about your wedding day.",
      sentAt: new Date(),
    });
    const messageId = await queueEmail(
      database.db,
      { to: address, subject: "A question for you", text: "Tell me about your wedding day." },
      { withJob: false },
    );
    const pmId = `pm-${tag}`;
    await database.db
      .updateTable("outbox_messages")
      .set({ status: "sent", provider: "postmark", provider_message_id: pmId, sent_at: new Date() })
      .where("id", "=", messageId)
      .execute();
    const delivery = await createDelivery(database.db, {
      promptId: prompt.id,
      channel: "email",
      status: "sent",
      outboxMessageId: messageId,
      providerMessageId: pmId,
    });

    await post(bounce(address, { MessageID: pmId }));
    const message = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("id", "=", messageId)
      .executeTakeFirstOrThrow();
    expect(message.status).toBe("failed");
    expect(message.error).toMatch(/^Bounced: The server was unable to deliver/);
    const d = await database.db
      .selectFrom("deliveries")
      .selectAll()
      .where("id", "=", delivery.id)
      .executeTakeFirstOrThrow();
    expect(d.status).toBe("failed");
    expect(d.error).toBe(message.error);
  });

  it("marks an address that complained of spam undeliverable", async () => {
    const tag = unique();
    const one = await emailStoryteller(`spam-${tag}@example.com`);
    const two = await emailStoryteller(`SPAM-${tag}@example.com`);
    const response = (await post({
      RecordType: "SpamComplaint",
      MessageStream: "outbound",
      ID: 42,
      Type: "SpamComplaint",
      TypeCode: 512,
      Name: "Spam complaint",
      Tag: "",
      MessageID: `spam-msg-${tag}`,
      ServerID: 1234,
      Description: "The subscriber explicitly marked this message as spam.",
      Details: "Test spam complaint details",
      Email: `Spam-${tag}@Example.com`,
      From: "hello@heirloom.example",
      BouncedAt: "2025-03-10T10:00:00Z",
      DumpAvailable: true,
      Inactive: true,
      CanActivate: false,
      Subject: "A question for you",
    })) as Response;
    expect(response.status).toBe(204);
    expect(await undeliverableAt(one)).toBeInstanceOf(Date);
    expect(await undeliverableAt(two)).toBeInstanceOf(Date);
  });

  it("changes nothing for a soft bounce", async () => {
    const tag = unique();
    const address = `soft-${tag}@example.com`;
    const id = await emailStoryteller(address);
    const response = (await post(
      bounce(address, { Type: "SoftBounce", TypeCode: 4096, Name: "Soft bounce", Inactive: false, CanActivate: false }),
    )) as Response;
    expect(response.status).toBe(204);
    expect(await undeliverableAt(id)).toBeNull();
    // Nor does a delivery or open notice for the address.
    await post({ RecordType: "Delivery", MessageID: "x", Recipient: address, DeliveredAt: "2025-03-10T10:00:00Z" });
    expect(await undeliverableAt(id)).toBeNull();
  });

  it("is a 400 for a body that is not JSON or not an event", async () => {
    const address = `malformed-${unique()}@example.com`;
    const id = await emailStoryteller(address);
    expect(await statusOf(post("{not json"))).toBe(400);
    expect(await statusOf(post(""))).toBe(400);
    expect(await statusOf(post({ Email: address, Type: "HardBounce" }))).toBe(400);
    expect(await statusOf(post([bounce(address)]))).toBe(400);
    expect(await undeliverableAt(id)).toBeNull();
  });
});
