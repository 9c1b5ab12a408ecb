import { randomBytes } from "node:crypto";
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAnswerCode } from "~/models/answer-code.server";
import { MAX_RECORDING_SECONDS } from "~/models/phone-call.server";
import { processPhoneRecording } from "~/models/phone-recording.server";
import { sweepPhoneCalls } from "~/models/phone-upkeep.server";
import { watchLogs } from "~/services/logger.server";
import { PHONE_PLAYBACK_MINUTES, signCapability, signPhonePlayback } from "~/services/tokens.server";
import { createTwilioVoice } from "~/services/voice.server";
import { inTransaction } from "../../db/client";
import { silentWav } from "../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createOutboundCall, createPrompt, createStoryteller, createUser } from "../../tests/factories";
import { type RecordedRequest, sendJson, startFakeApi } from "../../tests/fake-http-server";
import { jobsFor } from "../../tests/jobs";
import { loader as playbackLoader } from "./phone.play.$token";
import { action as voiceAction } from "./webhooks.twilio.voice";

const database = useTestDatabase();

const APP_URL = "https://heirloom.example";
const ACCOUNT_SID = "AC" + "1".repeat(32);
const AUTH_TOKEN = "auth-token-1234567890";
const VOICE_NUMBER = "+15555550100";

/** A local server speaking Twilio's REST API: recordings (media and delete) and calls. */
let fake: Awaited<ReturnType<typeof startFakeApi>>;
let failFetches = 0;
const recordingAudio = silentWav(3);
/** What Twilio's .mp3 of a recording is here: bytes that say which recording they are. */
const playbackAudio = new Uint8Array(Buffer.from("ID3\u0003 mp3 of a recording " + "x".repeat(2000)));
const BASIC = `Basic ${Buffer.from(`${"AC" + "1".repeat(32)}:auth-token-1234567890`).toString("base64")}`;
beforeAll(async () => {
  fake = await startFakeApi((request: RecordedRequest, res) => {
    const url = new URL(request.url, "http://twilio.test");
    const media = url.pathname.match(/^\/2010-04-01\/Accounts\/(AC\w+)\/Recordings\/(RE\w+)\.wav$/);
    if (request.method === "GET" && media) {
      if (failFetches > 0) {
        failFetches--;
        return sendJson(res, 503, { code: 20503, message: "Service unavailable", status: 503 });
      }
      res.writeHead(200, { "Content-Type": "audio/x-wav" });
      return res.end(recordingAudio);
    }
    const mp3 = url.pathname.match(/^\/2010-04-01\/Accounts\/(AC\w+)\/Recordings\/(RE\w+)\.mp3$/);
    if (request.method === "GET" && mp3) {
      // The account requires HTTP auth for recordings: without the credentials, nothing.
      if (request.headers.authorization !== BASIC) return sendJson(res, 401, { code: 20003, status: 401 });
      if (failFetches > 0) {
        failFetches--;
        return sendJson(res, 503, { code: 20503, message: "Service unavailable", status: 503 });
      }
      res.writeHead(200, { "Content-Type": "audio/mpeg", "Content-Length": String(playbackAudio.byteLength) });
      return res.end(playbackAudio);
    }
    if (request.method === "DELETE" && /\/Recordings\/RE\w+\.json$/.test(url.pathname)) {
      res.writeHead(204);
      return res.end();
    }
    if (request.method === "POST" && url.pathname === `/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json`) {
      return sendJson(res, 201, { sid: "CA" + "c".repeat(32), status: "queued", account_sid: ACCOUNT_SID });
    }
    sendJson(res, 404, { code: 20404, message: "Not found", status: 404 });
  });
});
afterAll(() => fake.close());

const context = () =>
  makeTestContext(database, {
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_FROM_NUMBER: VOICE_NUMBER,
    TWILIO_VOICE_NUMBER: VOICE_NUMBER,
    TWILIO_API_URL: fake.url,
    APP_URL,
  });

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const newCallSid = () => "CA" + hex(16);
const newRecordingSid = () => "RE" + hex(16);
let phoneCounter = 0;
const newPhone = () => `+1555${String(2_000_000 + phoneCounter++ * 7919 + Math.floor(Math.random() * 1000)).slice(-7)}`;

function signedRequest(path: string, params: Record<string, string>, signature?: string | null) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  const sig =
    signature === undefined ? twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${APP_URL}${path}`, params) : signature;
  if (sig !== null) headers["X-Twilio-Signature"] = sig;
  return new Request(`http://localhost:3000${path}`, { method: "POST", headers, body: new URLSearchParams(params) });
}

async function post(step: string, params: Record<string, string>, signature?: string | null) {
  try {
    const response = await voiceAction({
      request: signedRequest(`/webhooks/twilio/voice?step=${step}`, params, signature),
      context: context(),
      params: {},
      ...routeArgs,
    });
    return { status: response.status, xml: await response.text() };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, xml: "" };
    throw thrown;
  }
}

/** One phone call, step by step, as Twilio makes it. */
function call(from: string) {
  const sid = newCallSid();
  const base = { CallSid: sid, AccountSid: ACCOUNT_SID, From: from, To: VOICE_NUMBER, Direction: "inbound" };
  return {
    sid,
    start: () => post("incoming", { ...base, CallStatus: "ringing" }),
    press: (step: string, digits: string) => post(step, { ...base, Digits: digits }),
    recorded: (recordingSid: string, seconds = 3) =>
      post("recorded", {
        ...base,
        RecordingSid: recordingSid,
        RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/${recordingSid}`,
        RecordingDuration: String(seconds),
        Digits: "#",
      }),
    silence: () => post("silence", base),
    hangUp: () => post("status", { ...base, CallStatus: "completed" }),
  };
}

/** The text of every <Say>, in order. */
const said = (xml: string) => [...xml.matchAll(/<Say[^>]*>([^<]*)<\/Say>/g)].map((m) => m[1]);

async function sentPromptFor(storytellerId: string, text: string, sentAt = new Date()) {
  return createPrompt(database.db, { storytellerId, text, sentAt });
}
const codeFor = (promptId: string) =>
  inTransaction(database.db, (tx) => ensureAnswerCode(tx, context().config, promptId));

const recordingRows = (callSid: string) =>
  database.db
    .selectFrom("phone_recordings")
    .selectAll()
    .where("call_sid", "=", callSid)
    .orderBy("created_at")
    .execute();

const runRecordingJob = (recordingId: string) => {
  const ctx = context();
  return processPhoneRecording({ ...ctx, voice: createTwilioVoice(ctx.config) }, recordingId);
};

describe("voice webhook security", () => {
  it("refuses unsigned, forged and wrongly addressed requests with 403, and records no call", async () => {
    const params = { CallSid: newCallSid(), From: newPhone(), To: VOICE_NUMBER, AccountSid: ACCOUNT_SID };
    expect((await post("incoming", params, null)).status).toBe(403);
    expect((await post("incoming", params, "bm90IGEgcmVhbCBzaWduYXR1cmU=")).status).toBe(403);
    const otherUrl = twilio.getExpectedTwilioSignature(
      AUTH_TOKEN,
      "http://localhost:3000/webhooks/twilio/voice?step=incoming",
      params,
    );
    expect((await post("incoming", params, otherUrl)).status).toBe(403);
    // Signed for another step: the query is part of what is signed.
    const otherStep = twilio.getExpectedTwilioSignature(
      AUTH_TOKEN,
      `${APP_URL}/webhooks/twilio/voice?step=code`,
      params,
    );
    expect((await post("incoming", params, otherStep)).status).toBe(403);
    const calls = await database.db
      .selectFrom("phone_calls")
      .select("call_sid")
      .where("call_sid", "=", params.CallSid)
      .execute();
    expect(calls).toHaveLength(0);
  });

  it("refuses an oversized body and an unknown step", async () => {
    const big = { CallSid: newCallSid(), From: newPhone(), Junk: "x".repeat(70 * 1024) };
    expect((await post("incoming", big)).status).toBe(413);
    expect((await post("nonsense", { CallSid: newCallSid() })).status).toBe(400);
  });
});

describe("calling in", () => {
  it("recognises a Storyteller by caller ID and reads their one open question, in Hindi for a Hindi speaker", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      firstName: "Kamla",
      phone,
      language: "hi",
      prompts: [],
    });
    await sentPromptFor(storyteller.id, "आपका पहला घर कैसा था?");
    const { xml, status } = await call(phone).start();
    expect(status).toBe(200);
    expect(xml).toContain('<Say voice="Polly.Aditi" language="hi-IN">नमस्ते Kamla जी, यह Heirloom है।</Say>');
    expect(said(xml)).toContain("Ravi पूछ रहे हैं:");
    expect(said(xml)).toContain("आपका पहला घर कैसा था?");
    expect(xml).toMatch(
      /<Gather input="dtmf" numDigits="1" timeout="2" action="https:\/\/heirloom.example\/webhooks\/twilio\/voice\?step=key"/,
    );
    expect(xml).toMatch(
      /<Record action="https:\/\/heirloom.example\/webhooks\/twilio\/voice\?step=recorded" method="POST" maxLength="300" timeout="8" trim="trim-silence" finishOnKey="#" playBeep="true"\/>/,
    );
    expect(xml).toContain(
      '<Redirect method="POST">https://heirloom.example/webhooks/twilio/voice?step=silence</Redirect>',
    );
  });

  it("recognises a caller whose number arrives nationally or spaced, matched against E.164 on the called line's country", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      firstName: "Dadi",
      phone: "+919876543210",
      language: "hi",
      prompts: [],
    });
    await sentPromptFor(storyteller.id, "आपका गाँव कैसा था?");
    for (const from of ["+919876543210", "+91 98765 43210", "09876543210", "00919876543210"]) {
      const params = { CallSid: newCallSid(), AccountSid: ACCOUNT_SID, From: from, To: "+911123456789" };
      const { xml } = await post("incoming", { ...params, Direction: "inbound", CallStatus: "ringing" });
      expect(said(xml), from).toContain("आपका गाँव कैसा था?");
    }
  });

  it("lists several open questions, newest first, and reads the one chosen", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, prompts: [] });
    await sentPromptFor(storyteller.id, "Older question?", new Date("2026-01-01T10:00:00Z"));
    await sentPromptFor(storyteller.id, "Newer question?", new Date("2026-02-01T10:00:00Z"));
    await createPrompt(database.db, { storytellerId: storyteller.id, text: "Not sent yet?" });
    const c = call(phone);
    const menu = (await c.start()).xml;
    expect(said(menu)).toEqual([
      "Hello Kamla, this is Heirloom.",
      "You have 2 questions waiting.",
      "For the question: Newer question?. Press 1.",
      "For the question: Older question?. Press 2.",
      "We did not hear a choice. Please call again whenever you like. Goodbye.",
    ]);
    const chosen = (await c.press("choose", "2")).xml;
    expect(said(chosen)).toContain("Older question?");
    expect(said(chosen)).not.toContain("Newer question?");
  });

  it("asks for the code, in both languages, when the caller ID matches no one or more than one Storyteller", async () => {
    const owner = await createUser(database.db);
    const shared = newPhone();
    for (const name of ["A", "B"]) {
      const s = await createStoryteller(database.db, {
        ownerId: owner.id,
        nickname: `Nani ${name}`,
        phone: shared,
        prompts: [],
      });
      await sentPromptFor(s.id, `Question for ${name}?`);
    }
    for (const from of [shared, newPhone()]) {
      const { xml } = await call(from).start();
      expect(xml).toMatch(
        /<Gather input="dtmf" finishOnKey="#" timeout="8" action="https:\/\/heirloom.example\/webhooks\/twilio\/voice\?step=code"/,
      );
      expect(said(xml)).toContain(
        "Please enter the answer code that came with your question, then press the hash key.",
      );
      expect(said(xml)).toContain("कृपया वह कोड दबाइए जो आपको सवाल के साथ मिला था, और फिर हैश का बटन दबाइए।");
      expect(xml).not.toContain("Question for");
    }
  });

  it("opens the question whose code is entered, and not one answered or deleted", async () => {
    const owner = await createUser(database.db, { first_name: "Meera" });
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const open = await sentPromptFor(storyteller.id, "What games did you play?");
    const answered = await sentPromptFor(storyteller.id, "Where did you grow up?");
    const deleted = await sentPromptFor(storyteller.id, "Who taught you to cook?");
    const [openCode, answeredCode, deletedCode] = [
      await codeFor(open.id),
      await codeFor(answered.id),
      await codeFor(deleted.id),
    ];
    expect(new Set([openCode, answeredCode, deletedCode]).size).toBe(3);
    expect(openCode).toMatch(/^\d{6,12}$/);
    // The code is made once and stays the same.
    expect(await codeFor(open.id)).toBe(openCode);
    await createAnswer(database.db, { storytellerId: storyteller.id, promptId: answered.id });
    await database.db.deleteFrom("prompts").where("id", "=", deleted.id).execute();

    const caller = newPhone();
    const c = call(caller);
    await c.start();
    expect(said((await c.press("code", answeredCode)).xml)).toContain("Sorry, that code did not work.");
    expect(said((await c.press("code", deletedCode)).xml)).toContain("Sorry, that code did not work.");
    const opened = (await c.press("code", openCode)).xml;
    expect(said(opened)).toEqual(
      expect.arrayContaining(["Hello Kamla, this is Heirloom.", "Meera asks:", "What games did you play?"]),
    );
    const row = await database.db
      .selectFrom("phone_calls")
      .selectAll()
      .where("call_sid", "=", c.sid)
      .executeTakeFirstOrThrow();
    expect(row.prompt_id).toBe(open.id);
    expect(row.storyteller_id).toBe(storyteller.id);
  });

  it("slows a guesser with a growing wait, the right code doing nothing meanwhile, while another caller gets in", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await sentPromptFor(storyteller.id, "What was your first job?");
    const code = await codeFor(prompt.id);
    const wrong = (n: number) =>
      String(Number(code) + n + 1)
        .padStart(code.length, "0")
        .slice(-code.length);
    const caller = newPhone();
    const c = call(caller);
    await c.start();
    // Three wrong codes are free: the caller is asked again.
    for (let i = 1; i <= 3; i++) {
      const { xml } = await c.press("code", wrong(i));
      expect(said(xml)[0]).toBe("Sorry, that code did not work.");
      expect(xml).toContain('finishOnKey="#"');
    }
    // The fourth costs a minute: the caller is told and the call ends.
    const fourth = (await c.press("code", wrong(4))).xml;
    expect(said(fourth)).toContain(
      "Too many wrong codes have been entered from this phone. Please try again in 1 minute. Goodbye.",
    );
    expect(fourth).toContain("<Hangup/>");
    expect(fourth).not.toContain("<Gather");
    // Even the right code, in the same call or a new one, does nothing while the caller waits.
    expect(said((await c.press("code", code)).xml)).not.toContain("What was your first job?");
    const again = call(caller);
    const greeting = (await again.start()).xml;
    expect(greeting).toContain("<Hangup/>");
    expect(greeting).not.toContain("<Gather");
    // Another caller, meanwhile, gets in with the right code at once.
    const other = call(newPhone());
    await other.start();
    expect(said((await other.press("code", code)).xml)).toContain("What was your first job?");
    // A minute later the guesser may try again; the next wrong code costs two minutes.
    const aMinuteAgo = new Date(Date.now() - 61_000);
    await database.db
      .updateTable("phone_code_failures")
      .set({ last_at: aMinuteAgo, created_at: aMinuteAgo })
      .where("caller_e164", "=", caller)
      .execute();
    const later = call(caller);
    await later.start();
    expect(said((await later.press("code", wrong(5))).xml)).toContain(
      "Too many wrong codes have been entered from this phone. Please try again in 2 minutes. Goodbye.",
    );
    await database.db
      .updateTable("phone_code_failures")
      .set({ last_at: new Date(Date.now() - 121_000) })
      .where("caller_e164", "=", caller)
      .execute();
    const last = call(caller);
    await last.start();
    expect(said((await last.press("code", code)).xml)).toContain("What was your first job?");
  });

  it("counts the same wrong digits from one caller once, and digits too short to be a code not at all", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await sentPromptFor(storyteller.id, "Who was your best friend?");
    const code = await codeFor(prompt.id);
    const typo = code.slice(0, -1) + String((Number(code.at(-1)) + 1) % 10);
    const caller = newPhone();
    const c = call(caller);
    await c.start();
    for (let i = 0; i < 6; i++)
      expect(said((await c.press("code", typo)).xml)[0]).toBe("Sorry, that code did not work.");
    for (let i = 0; i < 6; i++)
      expect(said((await c.press("code", code.slice(0, 4))).xml)[0]).toBe("Sorry, that code did not work.");
    expect(said((await c.press("code", code)).xml)).toContain("Who was your best friend?");
    const rows = await database.db
      .selectFrom("phone_code_failures")
      .selectAll()
      .where("caller_e164", "=", caller)
      .execute();
    expect(rows).toHaveLength(1);
    // Kept as an HMAC, never as the digits.
    expect(JSON.stringify(rows)).not.toContain(typo);
  });

  it("when many numbers guess at one Heirloom number, no wrong code is free, yet the right code still opens", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await sentPromptFor(storyteller.id, "Spread-out guessing?");
    const code = await codeFor(prompt.id);
    const number = "+15555550199";
    await database.db
      .insertInto("phone_code_failures")
      .values(
        Array.from({ length: 21 }, (_, i) => ({
          caller_e164: `+1555700${String(i).padStart(4, "0")}`,
          called_e164: number,
          code_hmac: `guess-${i}`,
        })),
      )
      .execute();
    const base = (from: string) => ({ CallSid: newCallSid(), AccountSid: ACCOUNT_SID, From: from, To: number });
    const honest = base(newPhone());
    expect((await post("incoming", honest)).xml).toContain("<Gather");
    expect(said((await post("code", { ...honest, Digits: code })).xml)).toContain("Spread-out guessing?");
    const guesser = base(newPhone());
    await post("incoming", guesser);
    const told = said((await post("code", { ...guesser, Digits: "9".repeat(code.length) })).xml);
    // A caller we do not know hears it in both languages.
    expect(told).toContain(
      "Too many wrong codes have been entered from this phone. Please try again in 1 minute. Goodbye.",
    );
    expect(told).toContain("इस फ़ोन से बहुत बार गलत कोड दबाया गया है। कृपया 1 मिनट बाद फिर से फ़ोन कीजिए। नमस्ते।");
  });

  it("skips the question when 9 is pressed while it is read", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, prompts: [] });
    const prompt = await sentPromptFor(storyteller.id, "Skip me?");
    const c = call(phone);
    await c.start();
    const { xml } = await c.press("key", "9");
    expect(said(xml)).toEqual(["We have skipped this question. Goodbye."]);
    const row = await database.db
      .selectFrom("prompts")
      .select("skipped_at")
      .where("id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    expect(row.skipped_at).not.toBeNull();
    const notes = await database.db
      .selectFrom("notifications")
      .select("type")
      .where("prompt_id", "=", prompt.id)
      .execute();
    expect(notes.map((n) => n.type)).toContain("skipped");
  });
});

describe("recording", () => {
  async function callingStoryteller(text = "Tell me about your wedding.") {
    const owner = await createUser(database.db, { first_name: "Asha" });
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, prompts: [] });
    const prompt = await sentPromptFor(storyteller.id, text);
    const c = call(phone);
    await c.start();
    return { owner, storyteller, prompt, c };
  }

  it("re-records on 3, keeps on 1, then fetches the recording with auth, makes one answer by phone and deletes both at Twilio", async () => {
    const { owner, prompt, c } = await callingStoryteller();
    const code = await codeFor(prompt.id);
    const first = newRecordingSid();
    const review = (await c.recorded(first)).xml;
    expect(said(review)).toEqual([
      "To keep your answer, press 1. To listen to it, press 2. To record it again, press 3.",
    ]);
    expect(review).toContain('action="https://heirloom.example/webhooks/twilio/voice?step=review"');
    const listen = (await c.press("review", "2")).xml;
    expect(listen).toMatch(/<Play>https:\/\/heirloom\.example\/phone\/play\/[\w-]+\.[\w-]+\.[\w-]+<\/Play>/);
    const again = (await c.press("review", "3")).xml;
    expect(said(again)).toContain("All right, let us record it again.");
    expect(again).toContain("<Record ");
    const second = newRecordingSid();
    await c.recorded(second);
    const kept = (await c.press("review", "1")).xml;
    expect(said(kept)).toEqual(["Thank you. Your story is saved, and Asha will hear it soon. Goodbye."]);
    expect(kept).toContain("<Hangup/>");

    const rows = await recordingRows(c.sid);
    expect(rows.map((r) => [r.recording_sid, r.status])).toEqual([
      [first, "discarded"],
      [second, "kept"],
    ]);
    const jobs = await jobsFor(database.db, "phone__recording");
    expect(jobs.map((j) => j.payload.recordingId)).toEqual(expect.arrayContaining(rows.map((r) => r.id)));

    const before = fake.requests.length;
    expect(await runRecordingJob(rows[0].id)).toBe("discarded");
    expect(await runRecordingJob(rows[1].id)).toBe("stored");
    const calls = fake.requests.slice(before);
    expect(calls.map((r) => `${r.method} ${r.url}`)).toEqual([
      `DELETE /2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/${first}.json`,
      `GET /2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/${second}.wav`,
      `DELETE /2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/${second}.json`,
    ]);
    const basic = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`;
    for (const r of calls) expect(r.headers.authorization).toBe(basic);

    const answers = await database.db.selectFrom("answers").selectAll().where("prompt_id", "=", prompt.id).execute();
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ via_phone: true, content_type: "audio/wav", upload_id: `phone:${second}` });
    expect(answers[0].duration_ms).toBe(3000);
    const stored = await context().storage.get(answers[0].storage_key!);
    expect(stored?.size).toBe(recordingAudio.byteLength);
    // The same flow as a recorded answer: the asker is told, the transcription is queued.
    const notes = await database.db
      .selectFrom("notifications")
      .select(["type", "user_id"])
      .where("prompt_id", "=", prompt.id)
      .execute();
    expect(notes).toContainEqual({ type: "uploaded", user_id: owner.id });
    const transcribe = await jobsFor(database.db, "answer__transcribe");
    expect(transcribe.map((j) => j.payload.answerId)).toContain(answers[0].id);
    expect((await recordingRows(c.sid)).map((r) => r.status)).toEqual(["done", "done"]);
    // The code stops working once the prompt is answered, and gives up its place.
    const other = call(newPhone());
    await other.start();
    expect(said((await other.press("code", code)).xml)).toContain("Sorry, that code did not work.");
    expect(
      await database.db.selectFrom("answer_codes").select("prompt_id").where("prompt_id", "=", prompt.id).execute(),
    ).toEqual([]);
  });

  it("keeps the recording when the caller hangs up after recording", async () => {
    const { prompt, c } = await callingStoryteller("What did you cook on Sundays?");
    const sid = newRecordingSid();
    await c.recorded(sid);
    expect((await recordingRows(c.sid))[0].status).toBe("pending");
    const ended = await c.hangUp();
    expect(ended.status).toBe(204);
    const [row] = await recordingRows(c.sid);
    expect(row.status).toBe("kept");
    expect(await runRecordingJob(row.id)).toBe("stored");
    const answers = await database.db
      .selectFrom("answers")
      .select("via_phone")
      .where("prompt_id", "=", prompt.id)
      .execute();
    expect(answers).toEqual([{ via_phone: true }]);
  });

  it("keeps the recording when the hang-up is reported before the recording", async () => {
    const { c } = await callingStoryteller("What did you do on rainy days?");
    expect((await c.hangUp()).status).toBe(204);
    await c.recorded(newRecordingSid());
    const [row] = await recordingRows(c.sid);
    expect(row.status).toBe("kept");
    expect((await jobsFor(database.db, "phone__recording")).map((j) => j.payload.recordingId)).toContain(row.id);
  });

  it("keeps a recording left waiting an hour when Twilio's status callback never came", async () => {
    const { c } = await callingStoryteller("What was your first bicycle?");
    await c.recorded(newRecordingSid());
    await sweepPhoneCalls(database.db);
    expect((await recordingRows(c.sid))[0].status).toBe("pending");
    await sweepPhoneCalls(database.db, new Date(Date.now() + 61 * 60 * 1000));
    const [row] = await recordingRows(c.sid);
    expect(row.status).toBe("kept");
    expect((await jobsFor(database.db, "phone__recording")).map((j) => j.payload.recordingId)).toContain(row.id);
  });

  it("stores a duration past what a recording can last as the longest one, not an error", async () => {
    const { c } = await callingStoryteller("Where did you go to school?");
    const answer = await c.recorded(newRecordingSid(), 2_147_483_648);
    expect(answer.status).toBe(200);
    expect(answer.xml).toContain("<Gather");
    expect((await recordingRows(c.sid)).map((row) => row.duration_seconds)).toEqual([MAX_RECORDING_SECONDS]);
  });

  it("says it heard nothing and tries once more, then says goodbye", async () => {
    const { c } = await callingStoryteller();
    const first = (await c.silence()).xml;
    expect(said(first)).toEqual(["We did not hear anything. Let us try once more."]);
    expect(first).toContain("<Record ");
    // An empty recording counts as silence too.
    const second = (await c.recorded(newRecordingSid(), 0)).xml;
    expect(said(second)).toEqual(["We still did not hear anything. Please call again whenever you like. Goodbye."]);
    expect(second).toContain("<Hangup/>");
    expect(second).not.toContain("<Record ");
    expect(await recordingRows(c.sid)).toHaveLength(0);
  });

  it("retries a failing fetch and makes exactly one answer when it finally succeeds", async () => {
    const { prompt, c } = await callingStoryteller("What was school like?");
    await c.recorded(newRecordingSid());
    await c.press("review", "1");
    const [row] = await recordingRows(c.sid);
    failFetches = 2;
    await expect(runRecordingJob(row.id)).rejects.toThrow(/HTTP 503/);
    await expect(runRecordingJob(row.id)).rejects.toThrow(/HTTP 503/);
    expect(
      await database.db.selectFrom("answers").select("id").where("prompt_id", "=", prompt.id).execute(),
    ).toHaveLength(0);
    expect((await recordingRows(c.sid))[0].status).toBe("kept");
    expect(await runRecordingJob(row.id)).toBe("stored");
    // A stray extra run (a retry after a crash) changes nothing.
    expect(await runRecordingJob(row.id)).toBe("nothing-to-do");
    expect(
      await database.db.selectFrom("answers").select("id").where("prompt_id", "=", prompt.id).execute(),
    ).toHaveLength(1);
  });
});

describe("listening back (press 2)", () => {
  async function recordedCall(text: string) {
    const owner = await createUser(database.db, { first_name: "Asha" });
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, prompts: [] });
    await sentPromptFor(storyteller.id, text);
    const c = call(phone);
    await c.start();
    const recordingSid = newRecordingSid();
    await c.recorded(recordingSid);
    const [row] = await recordingRows(c.sid);
    return { c, recordingSid, row };
  }

  /** Presses 2 and returns the address the <Play> gives. */
  async function listen(c: ReturnType<typeof call>) {
    const xml = (await c.press("review", "2")).xml;
    const url = /<Play>([^<]+)<\/Play>/.exec(xml)![1];
    expect(xml.indexOf("<Play>")).toBeLessThan(xml.indexOf("<Gather"));
    return { xml, url, token: url.slice(`${APP_URL}/phone/play/`.length) };
  }

  async function play(token: string) {
    const response = await playbackLoader({
      request: new Request(`http://localhost:3000/phone/play/${token}`),
      context: context(),
      params: { token },
      ...routeArgs,
    });
    return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
  }

  it("plays the recording through our own route, which fetches it from Twilio with the account's credentials", async () => {
    const { c, recordingSid } = await recordedCall("What was your first radio?");
    const { xml, url, token } = await listen(c);
    expect(url.startsWith(`${APP_URL}/phone/play/`)).toBe(true);
    // Twilio's own media address (which wants the credentials) is never handed to <Play>.
    expect(xml).not.toContain(recordingSid);
    expect(xml).not.toContain("api.twilio.com");
    const direct = await fetch(`${fake.url}/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/${recordingSid}.mp3`);
    expect(direct.status).toBe(401);

    const before = fake.requests.length;
    const played = await play(token);
    expect(played.status).toBe(200);
    expect(played.headers.get("content-type")).toBe("audio/mpeg");
    expect(played.headers.get("content-length")).toBe(String(playbackAudio.byteLength));
    expect(played.headers.get("cache-control")).toBe("no-store");
    expect(played.body).toEqual(playbackAudio);
    const [fetched] = fake.requests.slice(before);
    expect(`${fetched.method} ${fetched.url}`).toBe(
      `GET /2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/${recordingSid}.mp3`,
    );
    expect(fetched.headers.authorization).toBe(BASIC);
    // Listening twice is fine; the menu comes again after each.
    expect((await play(token)).status).toBe(200);
    expect(said((await c.press("review", "2")).xml)).toEqual([
      "To keep your answer, press 1. To listen to it, press 2. To record it again, press 3.",
    ]);
  });

  it("refuses a tampered, expired or foreign token, and any token once the recording is decided or the call is over", async () => {
    const a = await recordedCall("What did your father do?");
    const b = await recordedCall("What did your mother do?");
    const { token } = await listen(a.c);
    const config = context().config;
    const before = fake.requests.length;
    const refused = {
      tampered: token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA"),
      "not a token": "nonsense",
      expired: signPhonePlayback(
        config,
        { recordingId: a.row.id, callSid: a.c.sid },
        new Date(Date.now() - (PHONE_PLAYBACK_MINUTES + 1) * 60_000),
      ),
      // Another call's recording under this call's id, and this call's recording under another's.
      "another call's recording": signPhonePlayback(config, { recordingId: b.row.id, callSid: a.c.sid }),
      "this recording for another call": signPhonePlayback(config, { recordingId: a.row.id, callSid: b.c.sid }),
      // Another kind of capability token for the same row.
      "a listen link's token": await signCapability(config, "listen", a.row.id),
      "another secret": signPhonePlayback(
        { SESSION_SECRET: "another-secret-that-is-long-enough-000" },
        { recordingId: a.row.id, callSid: a.c.sid },
      ),
    };
    for (const [name, bad] of Object.entries(refused)) expect([name, (await play(bad)).status]).toEqual([name, 404]);
    expect(fake.requests.length).toBe(before);
    expect((await play(token)).status).toBe(200);

    // Kept (1): the token stops working, though it has not expired.
    await a.c.press("review", "1");
    expect((await play(token)).status).toBe(404);
    // Call over: b's recording is kept by the hang-up, and its token stops too.
    const { token: bToken } = await listen(b.c);
    await b.c.hangUp();
    expect((await play(bToken)).status).toBe(404);
  });

  it("answers 502 when Twilio cannot give the recording, and logs neither the token nor the recording", async () => {
    const { c, recordingSid } = await recordedCall("Where did you go on holiday?");
    const { token } = await listen(c);
    const logged: string[] = [];
    const unwatch = watchLogs((_level, args) => {
      logged.push(JSON.stringify(args, (_key, value: unknown) => (value instanceof Error ? String(value) : value)));
      return false;
    });
    try {
      failFetches = 1;
      expect((await play(token)).status).toBe(502);
    } finally {
      unwatch();
      failFetches = 0;
    }
    expect(logged.join("\n")).toContain("phone playback fetch failed");
    expect(logged.join("\n")).not.toContain(token);
    expect(logged.join("\n")).not.toContain(recordingSid);
  });
});

describe("another question in the same call", () => {
  const OFFER = "To answer another question, press 1. Or you can hang up now.";

  async function storytellerWithTwo(phone = newPhone()) {
    const owner = await createUser(database.db, { first_name: "Asha" });
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, prompts: [] });
    const older = await sentPromptFor(storyteller.id, "Older question?", new Date("2026-01-01T10:00:00Z"));
    const newer = await sentPromptFor(storyteller.id, "Newer question?", new Date("2026-02-01T10:00:00Z"));
    return { storyteller, older, newer, phone };
  }

  it("offers the next question after one is kept, answers it, and hangs up once none is left: two answers", async () => {
    const { older, newer, phone } = await storytellerWithTwo();
    const c = call(phone);
    await c.start();
    await c.press("choose", "1");
    await c.recorded(newRecordingSid());
    const kept = (await c.press("review", "1")).xml;
    expect(said(kept)).toEqual(["Thank you. Your story is saved, and Asha will hear it soon.", OFFER, "Goodbye."]);
    expect(kept).toMatch(
      /<Gather input="dtmf" numDigits="1" timeout="8" action="https:\/\/heirloom.example\/webhooks\/twilio\/voice\?step=next"/,
    );
    // The question just kept is not offered again, though its answer is still on its way.
    const second = (await c.press("next", "1")).xml;
    expect(said(second)).toContain("Older question?");
    expect(said(second)).not.toContain("Newer question?");
    expect(second).toContain("<Record ");
    await c.recorded(newRecordingSid());
    const last = (await c.press("review", "1")).xml;
    expect(said(last)).toEqual(["Thank you. Your story is saved, and Asha will hear it soon. Goodbye."]);
    expect(last).toContain("<Hangup/>");
    expect(last).not.toContain("<Gather");

    const rows = await recordingRows(c.sid);
    expect(rows.map((r) => [r.prompt_id, r.status])).toEqual([
      [newer.id, "kept"],
      [older.id, "kept"],
    ]);
    for (const row of rows) expect(await runRecordingJob(row.id)).toBe("stored");
    const answers = await database.db
      .selectFrom("answers")
      .select(["prompt_id", "via_phone"])
      .where("prompt_id", "in", [older.id, newer.id])
      .orderBy("created_at")
      .execute();
    expect(answers).toEqual([
      { prompt_id: newer.id, via_phone: true },
      { prompt_id: older.id, via_phone: true },
    ]);
  });

  it("lists the rest when several are left, and says goodbye when no key (or another key) is pressed", async () => {
    const { storyteller, phone } = await storytellerWithTwo();
    await sentPromptFor(storyteller.id, "Newest question?", new Date("2026-03-01T10:00:00Z"));
    const c = call(phone);
    await c.start();
    await c.press("choose", "1");
    await c.recorded(newRecordingSid());
    expect(said((await c.press("review", "1")).xml)).toContain(OFFER);
    const menu = (await c.press("next", "1")).xml;
    expect(said(menu)).toEqual([
      "You have 2 questions waiting.",
      "For the question: Newer question?. Press 1.",
      "For the question: Older question?. Press 2.",
      "We did not hear a choice. Please call again whenever you like. Goodbye.",
    ]);
    for (const digits of ["", "5"]) {
      const bye = (await c.press("next", digits)).xml;
      expect(said(bye)).toEqual(["Goodbye."]);
      expect(bye).toContain("<Hangup/>");
    }
  });

  it("offers the next question after a skip (9) when more are left, in Hindi for a Hindi speaker", async () => {
    const owner = await createUser(database.db);
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, language: "hi", prompts: [] });
    const first = await sentPromptFor(storyteller.id, "पहला सवाल?", new Date("2026-02-01T10:00:00Z"));
    await sentPromptFor(storyteller.id, "दूसरा सवाल?", new Date("2026-01-01T10:00:00Z"));
    const c = call(phone);
    const menu = (await c.start()).xml;
    expect(said(menu)).toContain("आपके लिए दो सवाल हैं।");
    expect(said(menu)).toContain("सवाल है: पहला सवाल?। इसका जवाब देने के लिए एक दबाइए।");
    await c.press("choose", "1");
    const skipped = (await c.press("key", "9")).xml;
    expect(said(skipped)).toEqual([
      "ठीक है, यह सवाल छोड़ दिया गया है।",
      "एक और सवाल का जवाब देना हो, तो एक दबाइए। नहीं तो फ़ोन रख दीजिए।",
      "नमस्ते।",
    ]);
    expect(skipped).toContain('voice="Polly.Aditi" language="hi-IN"');
    const row = await database.db
      .selectFrom("prompts")
      .select("skipped_at")
      .where("id", "=", first.id)
      .executeTakeFirstOrThrow();
    expect(row.skipped_at).not.toBeNull();
    const next = (await c.press("next", "1")).xml;
    expect(said(next)).toContain("दूसरा सवाल?");
    // Skipping the last one: thanks and goodbye.
    const last = (await c.press("key", "9")).xml;
    expect(said(last)).toEqual(["ठीक है, यह सवाल छोड़ दिया गया है। नमस्ते।"]);
    expect(last).toContain("<Hangup/>");
  });

  it("asks a caller who came in with a code for the next question's code, never reading the others out", async () => {
    const { older, newer } = await storytellerWithTwo();
    const c = call(newPhone());
    await c.start();
    await c.press("code", await codeFor(newer.id));
    await c.recorded(newRecordingSid());
    expect(said((await c.press("review", "1")).xml)).toContain(OFFER);
    const asked = (await c.press("next", "1")).xml;
    expect(asked).toContain('finishOnKey="#"');
    expect(said(asked)).toContain(
      "Please enter the answer code that came with your question, then press the hash key.",
    );
    expect(asked).not.toContain("Older question?");
    const opened = (await c.press("code", await codeFor(older.id))).xml;
    expect(said(opened)).toContain("Older question?");
  });
});

describe("call-out", () => {
  it("places the call through Twilio's Calls API with answering-machine detection", async () => {
    const voice = createTwilioVoice(context().config);
    const before = fake.requests.length;
    const sid = await voice.createCall({
      to: "+15555550142",
      url: `${APP_URL}/webhooks/twilio/voice?step=outbound`,
      statusCallback: `${APP_URL}/webhooks/twilio/voice?step=status`,
    });
    expect(sid).toBe("CA" + "c".repeat(32));
    const [request] = fake.requests.slice(before);
    expect(request.method).toBe("POST");
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`,
    );
    expect(Object.fromEntries(new URLSearchParams(request.body))).toMatchObject({
      To: "+15555550142",
      From: VOICE_NUMBER,
      Url: `${APP_URL}/webhooks/twilio/voice?step=outbound`,
      MachineDetection: "Enable",
      StatusCallback: `${APP_URL}/webhooks/twilio/voice?step=status`,
    });
  });

  it("leaves an answering machine a short message with the number and code, and a person hears the question", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, prompts: [] });
    const prompt = await sentPromptFor(storyteller.id, "What songs did your mother sing?");
    const machineSid = newCallSid();
    await createOutboundCall(database.db, {
      callSid: machineSid,
      to: phone,
      from: VOICE_NUMBER,
      storytellerId: storyteller.id,
      promptId: prompt.id,
      language: "en",
    });
    const machine = await post("outbound", {
      CallSid: machineSid,
      From: VOICE_NUMBER,
      To: phone,
      AnsweredBy: "machine_start",
    });
    const code = await codeFor(prompt.id);
    expect(said(machine.xml)).toEqual([
      `Hello, this is Heirloom with a question from Ravi. To answer it, call 5 5 5, 5 5 5, 0 1 0 0 and enter the code ${code.slice(0, 3).split("").join(" ")}, ${code.slice(3).split("").join(" ")}. Goodbye.`,
    ]);
    expect(machine.xml).toContain("<Hangup/>");
    expect(machine.xml).not.toContain("<Record");

    const humanSid = newCallSid();
    await createOutboundCall(database.db, {
      callSid: humanSid,
      to: phone,
      from: VOICE_NUMBER,
      storytellerId: storyteller.id,
      promptId: prompt.id,
      language: "en",
    });
    const human = await post("outbound", { CallSid: humanSid, From: VOICE_NUMBER, To: phone, AnsweredBy: "human" });
    expect(said(human.xml)).toContain("What songs did your mother sing?");
    expect(human.xml).toContain("<Record ");
  });

  it("reads the number and the code to a Hindi answering machine digit by digit, as Hindi words", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const phone = newPhone();
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, language: "hi", prompts: [] });
    const prompt = await sentPromptFor(storyteller.id, "आपकी माँ कौन से गीत गाती थीं?");
    const sid = newCallSid();
    await createOutboundCall(database.db, {
      callSid: sid,
      to: phone,
      from: VOICE_NUMBER,
      storytellerId: storyteller.id,
      promptId: prompt.id,
      language: "hi",
    });
    const machine = await post("outbound", {
      CallSid: sid,
      From: VOICE_NUMBER,
      To: phone,
      AnsweredBy: "machine_end_beep",
    });
    const words = ["ज़ीरो", "एक", "दो", "तीन", "चार", "पाँच", "छह", "सात", "आठ", "नौ"];
    const code = (await codeFor(prompt.id)).split("").map((d) => words[Number(d)]);
    expect(said(machine.xml)).toEqual([
      `नमस्ते, यह Heirloom है। Ravi ने आपके लिए एक सवाल भेजा है। जवाब देने के लिए पाँच पाँच पाँच, पाँच पाँच पाँच, ज़ीरो एक ज़ीरो ज़ीरो पर फ़ोन कीजिए, और यह कोड दबाइए: ${code.slice(0, 3).join(" ")}, ${code.slice(3).join(" ")}। नमस्ते।`,
    ]);
  });
});
