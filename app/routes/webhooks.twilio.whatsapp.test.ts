import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import twilio from "twilio";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sendDelivery } from "~/models/delivery.server";
import { listNotifications } from "~/models/notification.server";
import { processWhatsAppVoiceNote } from "~/models/whatsapp.server";
import { createOutboxMail } from "~/services/mail.server";
import { createOutboxSms } from "~/services/sms.server";
import { createTwilioWhatsApp } from "~/services/whatsapp.server";
import { makeVoiceNote } from "../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createDelivery, createGroup, createStoryteller, createUser } from "../../tests/factories";
import { type RecordedRequest, sendJson, startFakeApi } from "../../tests/fake-http-server";
import { action as statusAction } from "./webhooks.twilio.status";
import { action as whatsappAction } from "./webhooks.twilio.whatsapp";

const database = useTestDatabase();

const APP_URL = "https://heirloom.example";
const AUTH_TOKEN = "auth-token-1234567890";
const ACCOUNT = "AC" + "1".repeat(32);
const SENDER = "+14155238886";
const twilioEnv = {
  TWILIO_ACCOUNT_SID: ACCOUNT,
  TWILIO_AUTH_TOKEN: AUTH_TOKEN,
  TWILIO_FROM_NUMBER: "+15555550100",
  TWILIO_WHATSAPP_FROM: SENDER,
  TWILIO_WHATSAPP_CONTENT_SID_EN: "HX" + "e".repeat(32),
  TWILIO_WHATSAPP_CONTENT_SID_HI: "HX" + "4".repeat(32),
  APP_URL,
};

const sid = (prefix: string) => prefix + randomBytes(16).toString("hex");
/** A fresh Indian mobile per call, so tests never share a phone. */
const newPhone = () => `+9198${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;

let folder: string;
let oggNote: Buffer;
let m4aNote: Buffer;
let longNote: Buffer;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "whatsapp-test-"));
  await makeVoiceNote(path.join(folder, "note.ogg"), "ogg", 2);
  await makeVoiceNote(path.join(folder, "note.m4a"), "m4a", 2);
  await makeVoiceNote(path.join(folder, "long.ogg"), "ogg", 5 * 60 + 20);
  [oggNote, m4aNote, longNote] = await Promise.all(
    ["note.ogg", "note.m4a", "long.ogg"].map((name) => readFile(path.join(folder, name))),
  );
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/**
 * A local server speaking Twilio's Messages and Media APIs: a created message gets an SM id; a
 * voice note's media is served (after `failures` 500s) and can be deleted.
 */
async function fakeTwilio(media: Map<string, Buffer>, options: { failures?: number } = {}) {
  let failures = options.failures ?? 0;
  const api = await startFakeApi((request: RecordedRequest, res) => {
    const prefix = `/2010-04-01/Accounts/${ACCOUNT}`;
    if (request.method === "POST" && request.url === `${prefix}/Messages.json`)
      return sendJson(res, 201, { sid: sid("SM"), status: "queued", account_sid: ACCOUNT });
    const mediaPath = /\/Messages\/(MM[0-9a-f]{32})\/Media\/(ME[0-9a-f]{32})(\.json)?$/.exec(request.url);
    if (mediaPath && request.method === "GET" && !mediaPath[3]) {
      if (failures > 0) {
        failures--;
        return sendJson(res, 500, { message: "try again" });
      }
      const bytes = media.get(mediaPath[2]);
      if (!bytes) return sendJson(res, 404, { code: 20404, message: "not found", status: 404 });
      res.writeHead(200, { "Content-Type": "audio/ogg" });
      return res.end(bytes);
    }
    if (mediaPath && request.method === "DELETE") {
      media.delete(mediaPath[2]);
      res.writeHead(204);
      return res.end();
    }
    sendJson(res, 404, { code: 20404, message: "not found", status: 404 });
  });
  return api;
}

let closeApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeApi?.();
  closeApi = undefined;
});

async function setUp(options: { failures?: number } = {}) {
  const media = new Map<string, Buffer>();
  const api = await fakeTwilio(media, options);
  closeApi = api.close;
  const context = makeTestContext(database, { ...twilioEnv, TWILIO_API_URL: api.url });
  const whatsapp = createTwilioWhatsApp(context.config);
  const deps = {
    db: database.db,
    config: context.config,
    storage: context.storage,
    mail: createOutboxMail({ print: false }),
    sms: createOutboxSms({ print: false }),
    whatsapp,
  };
  return { api, media, context, deps };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

/** Dadi, on WhatsApp in India, with consent; her prompts sent through the ledger at 11:00 her time. */
async function dadi(setup: Setup, options: { language?: "en" | "hi"; prompts?: string[] } = {}) {
  const owner = await createUser(database.db, { first_name: "Asha" });
  const phone = newPhone();
  const storyteller = await createStoryteller(database.db, {
    ownerId: owner.id,
    nickname: "Dadi",
    firstName: "Savitri",
    deliveryMethod: "whatsapp",
    phone,
    smsConsent: "granted",
    timeZone: "Asia/Kolkata",
    language: options.language ?? "hi",
    prompts: options.prompts ?? ["What was your wedding day like?"],
  });
  return { owner, phone, storyteller };
}

const at11 = (day: number) =>
  DateTime.fromObject({ year: 2026, month: 3, day, hour: 11 }, { zone: "Asia/Kolkata" }).toJSDate();

async function sendPrompt(setup: Setup, promptId: string, now: Date) {
  const delivery = await createDelivery(database.db, { promptId, channel: "whatsapp", scheduledFor: now });
  expect(await sendDelivery(setup.deps, delivery.id, { sendNow: true, now })).toBe("sent");
  return database.db
    .selectFrom("deliveries")
    .select(["provider_message_id", "outbox_message_id"])
    .where("id", "=", delivery.id)
    .executeTakeFirstOrThrow();
}

function signedRequest(pathAndQuery: string, params: Record<string, string>, signature?: string | null) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  const value =
    signature === undefined
      ? twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${APP_URL}${pathAndQuery}`, params)
      : signature;
  if (value !== null) headers["X-Twilio-Signature"] = value;
  return new Request(`http://localhost:3000${pathAndQuery}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(params),
  });
}

async function statusOf(promise: Promise<unknown>) {
  try {
    return ((await promise) as Response).status;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

const post = (setup: Setup, params: Record<string, string>, signature?: string | null) =>
  whatsappAction({
    request: signedRequest("/webhooks/twilio/whatsapp", params, signature),
    context: setup.context,
    params: {},
    ...routeArgs,
  });

/** What Twilio posts for a WhatsApp voice note (its media waits at the fake API). */
function voiceNoteParams(setup: Setup, from: string, bytes: Buffer, repliedTo?: string) {
  const messageSid = sid("MM");
  const mediaSid = sid("ME");
  setup.media.set(mediaSid, bytes);
  return {
    MessageSid: messageSid,
    AccountSid: ACCOUNT,
    From: `whatsapp:${from}`,
    To: `whatsapp:${SENDER}`,
    Body: "",
    NumMedia: "1",
    MediaContentType0: "audio/ogg",
    MediaUrl0: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Messages/${messageSid}/Media/${mediaSid}`,
    ...(repliedTo ? { OriginalRepliedMessageSid: repliedTo } : {}),
  };
}

const textParams = (from: string, body: string) => ({
  MessageSid: sid("SM"),
  AccountSid: ACCOUNT,
  From: `whatsapp:${from}`,
  To: `whatsapp:${SENDER}`,
  Body: body,
  NumMedia: "0",
});

const notes = (phone?: string) =>
  database.db
    .selectFrom("whatsapp_voice_notes")
    .selectAll()
    .$if(phone !== undefined, (q) => q.where("phone_e164", "=", phone!))
    .orderBy("created_at")
    .execute();
const answersOf = (promptId: string) =>
  database.db.selectFrom("answers").selectAll().where("prompt_id", "=", promptId).execute();
const repliesTo = (phone: string) =>
  database.db
    .selectFrom("outbox_messages")
    .selectAll()
    .where("to_address", "=", phone)
    .where("direction", "=", "outbound")
    .where("headers", "=", "{}" as never)
    .orderBy("created_at")
    .execute();

/** Runs the voice-note job for every note not done, as graphile-worker would (retrying on a throw). */
async function runNoteJobs(setup: Setup, { attempts = 5 } = {}) {
  const outcomes = [];
  for (const note of await notes()) {
    if (note.status === "done") continue;
    for (let attempt = 1; ; attempt++) {
      try {
        outcomes.push(await processWhatsAppVoiceNote(setup.deps, note.id));
        break;
      } catch (error) {
        if (attempt >= attempts) throw error;
      }
    }
  }
  return outcomes;
}

describe("WhatsApp questions through Twilio", () => {
  it("sends the question as the Content template of her language, with its variables, and records the status callback", async () => {
    const setup = await setUp();
    const hindi = await dadi(setup, { language: "hi" });
    const english = await dadi(setup, { language: "en", prompts: ["Where did you grow up?"] });
    const sentHi = await sendPrompt(setup, hindi.storyteller.prompts[0].id, at11(2));
    await sendPrompt(setup, english.storyteller.prompts[0].id, at11(2));

    const creates = setup.api.requests.filter((r) => r.url.endsWith("/Messages.json"));
    expect(creates).toHaveLength(2);
    const [hi, en] = creates.map((r) => Object.fromEntries(new URLSearchParams(r.body)));
    expect(hi).toMatchObject({
      To: `whatsapp:${hindi.phone}`,
      From: `whatsapp:${SENDER}`,
      ContentSid: twilioEnv.TWILIO_WHATSAPP_CONTENT_SID_HI,
    });
    expect(hi.Body).toBeUndefined();
    const hiVariables = JSON.parse(hi.ContentVariables) as Record<string, string>;
    expect(hiVariables).toMatchObject({ 1: "Savitri", 2: "Asha", 3: "What was your wedding day like?" });
    expect(hiVariables[4]).toMatch(new RegExp(`^${APP_URL}/record/[^?]+\\?lng=hi$`));
    expect(en).toMatchObject({ ContentSid: twilioEnv.TWILIO_WHATSAPP_CONTENT_SID_EN, To: `whatsapp:${english.phone}` });
    expect((JSON.parse(en.ContentVariables) as Record<string, string>)[3]).toBe("Where did you grow up?");
    expect(hi.StatusCallback).toBe(`${APP_URL}/webhooks/twilio/status?m=${sentHi.outbox_message_id}`);

    // Twilio reports the message undelivered: the message and the ledger row say so.
    const callback = `/webhooks/twilio/status?m=${sentHi.outbox_message_id}`;
    const statusParams = { MessageSid: sentHi.provider_message_id!, MessageStatus: "undelivered", ErrorCode: "63016" };
    const response = await statusAction({
      request: signedRequest(callback, statusParams),
      context: setup.context,
      params: {},
      ...routeArgs,
    });
    expect(response.status).toBe(204);
    const delivery = await database.db
      .selectFrom("deliveries")
      .select(["status", "error"])
      .where("outbox_message_id", "=", sentHi.outbox_message_id)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: "failed", error: "Twilio undelivered (error 63016)" });
  });
});

describe("WhatsApp voice-note answers", () => {
  it("makes exactly one answer of a voice note, though the webhook comes twice and the media fetch fails twice", async () => {
    const setup = await setUp({ failures: 2 });
    const { phone, storyteller, owner } = await dadi(setup);
    const promptId = storyteller.prompts[0].id;
    await sendPrompt(setup, promptId, at11(3));

    const params = voiceNoteParams(setup, phone, oggNote);
    expect((await post(setup, params)).status).toBe(200);
    expect((await post(setup, params)).status).toBe(200); // Twilio's retry
    expect(await notes(phone)).toHaveLength(1);
    // Two failed fetches (the job retries), then the note is stored.
    await expect(processWhatsAppVoiceNote(setup.deps, (await notes(phone))[0].id)).rejects.toThrow(/HTTP 500/);
    await expect(processWhatsAppVoiceNote(setup.deps, (await notes(phone))[0].id)).rejects.toThrow(/HTTP 500/);
    expect(await runNoteJobs(setup)).toEqual(["thanks"]);
    expect(await runNoteJobs(setup)).toEqual([]); // a retry after success does nothing

    const answers = await answersOf(promptId);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content_type: "audio/ogg", upload_id: `whatsapp:${params.MessageSid}` });
    // The family hears of it; the media is gone at Twilio; she is thanked in Hindi, once.
    const notified = await database.db
      .selectFrom("notifications")
      .select("type")
      .where("user_id", "=", owner.id)
      .where("type", "=", "uploaded")
      .execute();
    expect(notified).toHaveLength(1);
    expect(setup.media.size).toBe(0);
    const replies = await repliesTo(phone);
    expect(replies.map((r) => r.text_body)).toEqual(["धन्यवाद! आपका जवाब सहेज लिया गया है, और Asha इसे जल्द ही सुनेंगे।"]);
    // Both directions are kept in the outbox table.
    const inbound = await database.db
      .selectFrom("outbox_messages")
      .select(["status", "provider_message_id", "channel"])
      .where("direction", "=", "inbound")
      .where("to_address", "=", phone)
      .execute();
    expect(inbound).toEqual([{ status: "received", provider_message_id: params.MessageSid, channel: "whatsapp" }]);
  });

  it("answers the question she replied to, and a second note in a row gets a link to record again", async () => {
    const setup = await setUp();
    const { phone, storyteller } = await dadi(setup, {
      language: "en",
      prompts: ["Tell me about your mother.", "What was your first job?"],
    });
    const [older, newer] = storyteller.prompts;
    const first = await sendPrompt(setup, older.id, at11(4));
    await sendPrompt(setup, newer.id, at11(5));

    // Replying to the older question's message routes there, not to the newest open one.
    await post(setup, voiceNoteParams(setup, phone, m4aNote, first.provider_message_id!));
    await runNoteJobs(setup);
    expect(await answersOf(older.id)).toHaveLength(1);
    expect(await answersOf(newer.id)).toHaveLength(0);
    expect((await answersOf(older.id))[0].content_type).toBe("audio/mp4");

    // Without a reply-to: her most recently sent open question.
    await post(setup, voiceNoteParams(setup, phone, oggNote));
    await runNoteJobs(setup);
    expect(await answersOf(newer.id)).toHaveLength(1);

    // Another note in a row: nothing is open, so it goes to the one she just answered, which keeps its answer.
    const again = voiceNoteParams(setup, phone, oggNote);
    await post(setup, again);
    expect(await runNoteJobs(setup)).toEqual(["alreadyAnswered"]);
    expect(await answersOf(newer.id)).toHaveLength(1);
    expect((await answersOf(newer.id))[0].upload_id).not.toBe(`whatsapp:${again.MessageSid}`);
    const last = (await repliesTo(phone)).at(-1)!;
    expect(last.text_body).toMatch(
      new RegExp(`^Your first voice note is already saved as your answer\\. .* ${APP_URL}/record/\\S+\\?lng=en$`),
    );
    expect(setup.media.size).toBe(0);
  });

  it("makes a voice note with no open question a story of her own, which the family hears of", async () => {
    const setup = await setUp();
    const { phone, storyteller, owner } = await dadi(setup, { language: "hi" });
    const member = await createUser(database.db, { first_name: "Ravi", language: "en" });
    await createGroup(database.db, { ownerId: owner.id, storytellerId: storyteller.id, collaborators: [member.id] });

    // Nothing asked yet: the note is her own story, titled in her owner's language.
    const params = voiceNoteParams(setup, phone, oggNote);
    await post(setup, params);
    await post(setup, params); // Twilio's retry
    expect(await runNoteJobs(setup)).toEqual(["thanks"]);
    const stories = await database.db
      .selectFrom("prompts as p")
      .innerJoin("answers as a", "a.prompt_id", "p.id")
      .select(["p.text", "p.is_own_story", "p.sent_at", "a.upload_id", "a.storyteller_id"])
      .where("p.storyteller_id", "=", storyteller.id)
      .where("p.is_own_story", "=", true)
      .execute();
    expect(stories).toMatchObject([
      { text: "Dadi sent a story", upload_id: `whatsapp:${params.MessageSid}`, storyteller_id: storyteller.id },
    ]);
    expect(setup.media.size).toBe(0);
    expect((await repliesTo(phone)).map((r) => r.text_body)).toEqual([
      "धन्यवाद! आपकी कहानी सहेज ली गई है, और Asha इसे जल्द ही सुनेंगे।",
    ]);
    // The owner and the group's member see "Dadi sent a story" on their bell.
    for (const person of [owner, member]) {
      const [item] = await listNotifications(database.db, person.id, 10);
      expect(item).toMatchObject({ type: "story", nickname: "Dadi", promptText: null });
    }
    // The question she was going to be asked is still in the queue, unsent.
    expect(await answersOf(storyteller.prompts[0].id)).toHaveLength(0);

    // Another note in a row is another story, not a second recording of the first.
    await post(setup, voiceNoteParams(setup, phone, m4aNote));
    expect(await runNoteJobs(setup)).toEqual(["thanks"]);
    const own = await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", storyteller.id)
      .where("is_own_story", "=", true)
      .execute();
    expect(own).toHaveLength(2);
  });

  it("tells her when a note is too long (leaving no story), and a number we do not know that nothing waits", async () => {
    const setup = await setUp();
    const { phone, storyteller } = await dadi(setup, { language: "en" });

    await post(setup, voiceNoteParams(setup, phone, longNote));
    expect(await runNoteJobs(setup)).toEqual(["tooLong"]);
    expect((await repliesTo(phone)).at(-1)!.text_body).toBe(
      "That voice note is longer than 5 minutes, so it could not be kept. Please send a shorter one.",
    );
    const own = await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", storyteller.id)
      .where("is_own_story", "=", true)
      .execute();
    expect(own).toEqual([]);

    await sendPrompt(setup, storyteller.prompts[0].id, at11(6));
    await post(setup, voiceNoteParams(setup, phone, longNote));
    expect(await runNoteJobs(setup)).toEqual(["tooLong"]);
    expect(await answersOf(storyteller.prompts[0].id)).toHaveLength(0);
    expect(setup.media.size).toBe(0);

    const stranger = newPhone();
    await post(setup, voiceNoteParams(setup, stranger, oggNote));
    expect(await runNoteJobs(setup)).toEqual(["noQuestion"]);
    expect((await repliesTo(stranger)).map((r) => r.text_body)).toEqual([
      "There is no question waiting for your answer just now. The next one will come here.",
    ]);
    expect(setup.media.size).toBe(0);
  });
});

describe("a WhatsApp text from her", () => {
  it("reaches her family: the bell of everyone who may see her, and the email of those who asked for it", async () => {
    const setup = await setUp();
    const { phone, storyteller, owner } = await dadi(setup, { language: "hi" });
    const member = await createUser(database.db, { first_name: "Ravi", language: "en" });
    const outsider = await createUser(database.db, { first_name: "Meera" });
    await createGroup(database.db, { ownerId: owner.id, storytellerId: storyteller.id, collaborators: [member.id] });

    const params = textParams(phone, "नमस्ते बेटा, आज मैंने तुम्हारे लिए खीर बनाई।");
    await post(setup, params);
    await post(setup, params); // Twilio's retry
    const kept = await database.db
      .selectFrom("storyteller_messages")
      .select(["storyteller_id", "text"])
      .where("storyteller_id", "=", storyteller.id)
      .execute();
    expect(kept).toEqual([{ storyteller_id: storyteller.id, text: "नमस्ते बेटा, आज मैंने तुम्हारे लिए खीर बनाई।" }]);
    for (const person of [owner, member]) {
      const items = await listNotifications(database.db, person.id, 10);
      expect(items).toMatchObject([
        {
          type: "message",
          storytellerId: storyteller.id,
          nickname: "Dadi",
          promptText: "नमस्ते बेटा, आज मैंने तुम्हारे लिए खीर बनाई।",
          isNew: true,
        },
      ]);
    }
    expect(await listNotifications(database.db, outsider.id, 10)).toEqual([]);
    const emails = await database.db
      .selectFrom("outbox_messages")
      .select(["to_address", "subject"])
      .where("channel", "=", "email")
      .where("to_address", "in", [owner.email, member.email, outsider.email])
      .orderBy("to_address")
      .execute();
    expect(emails).toEqual(
      [
        { to_address: owner.email, subject: "Dadi wrote: “नमस्ते बेटा, आज मैंने तुम्हारे लिए खीर बनाई।”" },
        { to_address: member.email, subject: "Dadi wrote: “नमस्ते बेटा, आज मैंने तुम्हारे लिए खीर बनाई।”" },
      ].sort((a, b) => a.to_address.localeCompare(b.to_address)),
    );
    // She is told it reached them, in Hindi; no "send a voice note" reply.
    expect((await repliesTo(phone)).map((r) => r.text_body)).toEqual(["धन्यवाद! आपका संदेश Asha तक पहुँच जाएगा।"]);
  });

  it("on a number of two families goes to the family whose question she quoted, else she is asked to quote one", async () => {
    const setup = await setUp();
    const first = await dadi(setup, { language: "en" });
    const other = await createUser(database.db, { first_name: "Ravi" });
    const second = await createStoryteller(database.db, {
      ownerId: other.id,
      deliveryMethod: "whatsapp",
      phone: first.phone,
      language: "en",
    });
    await post(setup, textParams(first.phone, "Hello dear"));
    const messages = () =>
      database.db
        .selectFrom("storyteller_messages")
        .select("storyteller_id")
        .where("storyteller_id", "in", [first.storyteller.id, second.id])
        .execute();
    expect(await messages()).toEqual([]);
    expect((await repliesTo(first.phone)).map((r) => r.text_body)).toEqual([
      "This number gets questions from more than one family, so we cannot tell whom your message is for. Please reply to one of their questions' messages with it (press and hold the message, then “Reply”).",
    ]);

    const sent = await sendPrompt(setup, first.storyteller.prompts[0].id, at11(11));
    await post(setup, {
      ...textParams(first.phone, "Hello dear"),
      OriginalRepliedMessageSid: sent.provider_message_id!,
    });
    expect(await messages()).toEqual([{ storyteller_id: first.storyteller.id }]);
    expect(await listNotifications(database.db, first.owner.id, 10)).toMatchObject([{ type: "message" }]);
    expect(await listNotifications(database.db, other.id, 10)).toEqual([]);
  });
});

describe("a WhatsApp number shared by two families", () => {
  it("never guesses whose question an unquoted voice note answers: she is asked, in her language, to reply to the question's message", async () => {
    const setup = await setUp();
    const first = await dadi(setup, { language: "hi", prompts: ["Who taught you to cook?"] });
    // Another account adds the same number (a second family, or a stranger).
    const other = await createUser(database.db, { first_name: "Ravi" });
    const second = await createStoryteller(database.db, {
      ownerId: other.id,
      nickname: "Amma",
      deliveryMethod: "whatsapp",
      phone: first.phone,
      smsConsent: "granted",
      timeZone: "Asia/Kolkata",
      language: "en",
      prompts: ["Where were you born?"],
    });
    const ours = await sendPrompt(setup, first.storyteller.prompts[0].id, at11(9));
    await sendPrompt(setup, second.prompts[0].id, at11(10));

    await post(setup, voiceNoteParams(setup, first.phone, oggNote));
    expect(await runNoteJobs(setup)).toEqual(["nothing-to-do"]);
    expect(await answersOf(first.storyteller.prompts[0].id)).toHaveLength(0);
    expect(await answersOf(second.prompts[0].id)).toHaveLength(0);
    expect(setup.media.size).toBe(0);
    // The newest Storyteller on the number speaks English.
    expect((await repliesTo(first.phone)).map((r) => r.text_body)).toEqual([
      "This number gets questions from more than one family, so we cannot tell which question this voice note answers. Please reply to the question's own message with your voice note (press and hold the message, then “Reply”).",
    ]);

    // Quoting the question's message says whose it is.
    await post(setup, voiceNoteParams(setup, first.phone, oggNote, ours.provider_message_id!));
    expect(await runNoteJobs(setup)).toEqual(["thanks"]);
    expect(await answersOf(first.storyteller.prompts[0].id)).toHaveLength(1);
    expect(await answersOf(second.prompts[0].id)).toHaveLength(0);
  });

  it("asks in Hindi when the number's newest Storyteller speaks Hindi", async () => {
    const setup = await setUp();
    const other = await createUser(database.db, { first_name: "Ravi" });
    const phone = newPhone();
    await createStoryteller(database.db, { ownerId: other.id, deliveryMethod: "whatsapp", phone, language: "en" });
    const owner = await createUser(database.db, { first_name: "Asha" });
    await createStoryteller(database.db, { ownerId: owner.id, deliveryMethod: "whatsapp", phone, language: "hi" });
    await post(setup, voiceNoteParams(setup, phone, oggNote));
    expect((await repliesTo(phone)).map((r) => r.text_body)).toEqual([
      "इस नंबर पर एक से ज़्यादा परिवारों के सवाल आते हैं, इसलिए हम नहीं जान सकते कि यह वॉइस नोट किस सवाल का जवाब है। कृपया सवाल वाले संदेश का ही जवाब अपने वॉइस नोट से दें (संदेश को दबाकर रखें, फिर “जवाब दें” चुनें)।",
    ]);
    expect(await notes(phone)).toMatchObject([{ prompt_id: null, status: "replied", error: "quoteQuestion" }]);
  });
});

describe("WhatsApp STOP and START", () => {
  it("बंद stops her questions (held back before Twilio), START brings them back", async () => {
    const setup = await setUp();
    const { phone, storyteller } = await dadi(setup, {
      prompts: ["Who taught you to cook?", "What songs did you sing?"],
    });
    const consent = async () =>
      (
        await database.db
          .selectFrom("storytellers")
          .select("sms_consent")
          .where("id", "=", storyteller.id)
          .executeTakeFirstOrThrow()
      ).sms_consent;

    await post(setup, textParams(phone, " बंद "));
    expect(await consent()).toBe("revoked");
    expect((await repliesTo(phone)).at(-1)!.text_body).toBe(
      "अब आपको व्हाट्सऐप पर और सवाल नहीं आएँगे। फिर से पाने के लिए START या शुरू भेजें।",
    );
    // A question due now is cancelled by the ledger's re-check: nothing reaches Twilio.
    const delivery = await createDelivery(database.db, {
      promptId: storyteller.prompts[0].id,
      channel: "whatsapp",
      scheduledFor: at11(7),
    });
    expect(await sendDelivery(setup.deps, delivery.id, { sendNow: true, now: at11(7) })).toBe("cancelled");
    expect(setup.api.requests.filter((r) => r.url.endsWith("/Messages.json"))).toHaveLength(0);

    await post(setup, textParams(phone, "START"));
    expect(await consent()).toBe("granted");
    expect((await repliesTo(phone)).at(-1)!.text_body).toBe("फिर से स्वागत है! Asha के सवाल अब फिर यहीं आएँगे।");
    await sendPrompt(setup, storyteller.prompts[1].id, at11(8));
    expect(setup.api.requests.filter((r) => r.url.endsWith("/Messages.json"))).toHaveLength(1);
  });
});

describe("WhatsApp webhook refuses what is not Twilio's", () => {
  it("403 unsigned or mis-signed, 400 for a NUL in the number, 413 for a 1 MB body, changing nothing", async () => {
    const setup = await setUp();
    const { phone } = await dadi(setup);
    const params = textParams(phone, "STOP");
    expect(await statusOf(post(setup, params, null))).toBe(403);
    expect(await statusOf(post(setup, params, "bm90IGEgcmVhbCBzaWduYXR1cmU="))).toBe(403);
    const wrongKey = twilio.getExpectedTwilioSignature(
      "another-auth-token-123",
      `${APP_URL}/webhooks/twilio/whatsapp`,
      params,
    );
    expect(await statusOf(post(setup, params, wrongKey))).toBe(403);

    expect(await statusOf(post(setup, { ...params, From: "whatsapp:\u0000" }))).toBe(400);
    expect(await statusOf(post(setup, { ...params, MessageSid: "\u0000" }))).toBe(400);
    expect(await statusOf(post(setup, { ...params, Body: "x".repeat(1024 * 1024) }))).toBe(413);

    const kept = await database.db.selectFrom("outbox_messages").select("id").where("to_address", "=", phone).execute();
    expect(kept).toHaveLength(0);
  });
});
