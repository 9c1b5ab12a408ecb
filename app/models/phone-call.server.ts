import { sql } from "kysely";
import twilio from "twilio";
import type VoiceResponse from "twilio/lib/twiml/VoiceResponse";
import { z } from "zod";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { signPhonePlayback, verifyPhonePlayback } from "~/services/tokens.server";
import { CALL_SID, RECORDING_SID, type RecordingStream, type VoiceService } from "~/services/voice.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";
import { ensureAnswerCode, findOpenPromptByCode, formatAnswerCode } from "./answer-code.server";
import { type AnswerServices, skipPrompt } from "./answer.server";
import { revokeCallConsent } from "./call-consent.server";
import { recordCallOut, recordCallOutcome } from "./call-out.server";
import { decidePhoneRecordings } from "./phone-upkeep.server";

/**
 * Answering by phone (decision 022): every Twilio voice webhook, and the simulator in /dev/outbox,
 * lands in `handleVoiceStep`, which keeps the call's state in `phone_calls` and answers with TwiML
 * built by the SDK's VoiceResponse. The steps are the `?step=` of the webhook URL.
 */
export const VOICE_STEPS = [
  "incoming",
  "code",
  "choose",
  "key",
  "recorded",
  "silence",
  "review",
  "status",
  "outbound",
  "next",
] as const;
export type VoiceStep = (typeof VOICE_STEPS)[number];
export const voiceStepSchema = z.enum(VOICE_STEPS);

export type VoiceServices = AnswerServices;

/** Wrong codes: this many in an hour from one caller end the call and lock that caller out for the hour. */
export const WRONG_CODES_PER_CALLER = 5;
/** …and this many in an hour to one Heirloom number, from anyone, stop code entry there for the hour. */
export const WRONG_CODES_PER_NUMBER = 50;
const LOCK_MS = 60 * 60 * 1000;
/** Keys 1–8 pick a question; 9 is "skip". */
const MAX_LISTED = 8;
export const MAX_RECORDING_SECONDS = 300;

const voiceOf = (language: Language) =>
  language === "hi"
    ? ({ voice: "Polly.Aditi", language: "hi-IN" } as const)
    : ({ voice: "Polly.Joanna", language: "en-US" } as const);

export const voiceWebhookUrl = (config: Pick<Config, "APP_URL">, step: VoiceStep) =>
  `${config.APP_URL}/webhooks/twilio/voice?step=${step}`;

/**
 * Digits as the caller hears them. Hindi gets the words ("पाँच", not "5"), so the voice never reads
 * a run of digits as one large number; "ज़ीरो" is how Hindi speakers say 0 in a phone number.
 */
const HINDI_DIGITS = ["ज़ीरो", "एक", "दो", "तीन", "चार", "पाँच", "छह", "सात", "आठ", "नौ"];
export const spokenDigit = (language: Language, digit: number | string) =>
  language === "hi" ? (HINDI_DIGITS[Number(digit)] ?? String(digit)) : String(digit);
const spokenDigits = (language: Language, digits: string) =>
  digits
    .split("")
    .map((d) => spokenDigit(language, d))
    .join(" ");

/** A number said digit by digit ("5 5 5, 0 1 0 0"), as people read phone numbers out. */
export function spokenNumber(e164: string, language: Language = "en") {
  const national = e164.startsWith("+1") ? e164.slice(2) : e164.replace(/^\+/, "");
  const groups = national.length === 10 ? [national.slice(0, 3), national.slice(3, 6), national.slice(6)] : [national];
  return groups.map((g) => spokenDigits(language, g)).join(", ");
}
/** An answer code in two groups of three, digit by digit ("1 2 3, 4 5 6"). */
export const spokenCode = (code: string, language: Language = "en") =>
  `${spokenDigits(language, code.slice(0, 3))}, ${spokenDigits(language, code.slice(3))}`;

type Call = {
  call_sid: string;
  direction: "inbound" | "outbound";
  caller_e164: string;
  called_e164: string;
  storyteller_id: string | null;
  prompt_id: string | null;
  language: Language;
  silent_tries: number;
  ended_at: Date | null;
};

class Script {
  readonly response = new VoiceResponse_();
  constructor(
    private readonly config: Config,
    readonly t: (key: string, vars?: Record<string, unknown>) => string,
    readonly language: Language,
  ) {}
  say(key: string, vars?: Record<string, unknown>, node: Pick<VoiceResponse, "say"> = this.response) {
    node.say(voiceOf(this.language), this.t(key, vars));
  }
  sayText(text: string, node: Pick<VoiceResponse, "say"> = this.response) {
    node.say(voiceOf(this.language), text);
  }
  gather(step: VoiceStep, numDigits: number, timeout: number) {
    return this.response.gather({
      input: ["dtmf"],
      numDigits,
      timeout,
      action: voiceWebhookUrl(this.config, step),
      method: "POST",
      actionOnEmptyResult: step === "review",
    });
  }
  /** The beep and up to 5:00 of talk; silence (no recording at all) falls through to "silence". */
  record() {
    this.response.record({
      action: voiceWebhookUrl(this.config, "recorded"),
      method: "POST",
      maxLength: MAX_RECORDING_SECONDS,
      timeout: 8,
      trim: "trim-silence",
      finishOnKey: "#",
      playBeep: true,
    });
    this.response.redirect({ method: "POST" }, voiceWebhookUrl(this.config, "silence"));
  }
  goodbye(key: string, vars?: Record<string, unknown>) {
    this.say(key, vars);
    this.response.hangup();
    return this.toString();
  }
  toString() {
    return this.response.toString();
  }
}
const VoiceResponse_ = twilio.twiml.VoiceResponse;

async function script(services: VoiceServices, language: Language) {
  const t = await getServerT(language, services, "phone");
  return new Script(services.config, (key, vars) => t(key, vars), language);
}

/** The Storyteller's language, or both when we do not know who is calling yet. */
const languagesOf = (call: Pick<Call, "language" | "storyteller_id">): Language[] =>
  call.storyteller_id ? [call.language] : ["en", "hi"];

async function sayAll(
  services: VoiceServices,
  node: Pick<VoiceResponse, "say">,
  languages: Language[],
  key: string,
  vars?: Record<string, unknown>,
) {
  for (const language of languages) node.say(voiceOf(language), await text(services, language, key, vars));
}

async function text(services: VoiceServices, language: Language, key: string, vars?: Record<string, unknown>) {
  return (await getServerT(language, services, "phone"))(key, vars);
}

/** "Enter your 6-digit answer code" (in both languages for an unknown caller). */
async function askForCode(services: VoiceServices, call: Pick<Call, "language" | "storyteller_id">, lead?: string) {
  const languages = languagesOf(call);
  const s = await script(services, languages[0]);
  if (lead) await sayAll(services, s.response, languages, lead);
  const gather = s.gather("code", 6, 10);
  await sayAll(services, gather, languages, "code.prompt");
  await sayAll(services, s.response, languages, "code.none");
  s.response.hangup();
  return s.toString();
}

async function loadCall(db: DbOrTx, callSid: string): Promise<Call | null> {
  return (
    (await db
      .selectFrom("phone_calls")
      .select([
        "call_sid",
        "direction",
        "caller_e164",
        "called_e164",
        "storyteller_id",
        "prompt_id",
        "language",
        "silent_tries",
        "ended_at",
      ])
      .where("call_sid", "=", callSid)
      .executeTakeFirst()) ?? null
  );
}

async function updateCall(db: DbOrTx, callSid: string, values: Partial<Omit<Call, "call_sid">> & { ended_at?: Date }) {
  await db
    .updateTable("phone_calls")
    .set({ ...values, updated_at: new Date() })
    .where("call_sid", "=", callSid)
    .execute();
}

/** Locked out: too many wrong codes in the last hour from this caller, or to this number. */
export async function isLockedOut(db: DbOrTx, caller: string, called: string, now = new Date()) {
  const since = new Date(now.getTime() - LOCK_MS);
  const row = await db
    .selectFrom("phone_code_failures")
    .select([
      sql<string>`count(*) filter (where caller_e164 = ${caller})`.as("by_caller"),
      sql<string>`count(*) filter (where called_e164 = ${called})`.as("to_number"),
    ])
    .where("created_at", ">", since)
    .where((eb) => eb.or([eb("caller_e164", "=", caller), eb("called_e164", "=", called)]))
    .executeTakeFirstOrThrow();
  return Number(row.by_caller) >= WRONG_CODES_PER_CALLER || Number(row.to_number) >= WRONG_CODES_PER_NUMBER;
}

/** The Storyteller's questions waiting for an answer, newest first (what "press 1, 2, …" lists). */
export async function openPromptsOf(db: DbOrTx, storytellerId: string) {
  return (
    db
      .selectFrom("prompts as p")
      .select(["p.id", "p.text"])
      .where("p.storyteller_id", "=", storytellerId)
      .where("p.sent_at", "is not", null)
      .where("p.skipped_at", "is", null)
      .where((eb) =>
        eb.or([
          eb("p.rerecord_requested_at", "is not", null),
          eb.not(eb.exists(eb.selectFrom("answers as a").select("a.id").whereRef("a.prompt_id", "=", "p.id"))),
        ]),
      )
      // A recording already given for it (in this call or another) is on its way to being the answer.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("phone_recordings as r")
              .select("r.id")
              .whereRef("r.prompt_id", "=", "p.id")
              .where("r.status", "in", ["pending", "kept"]),
          ),
        ),
      )
      .orderBy("p.sent_at", "desc")
      .orderBy("p.id")
      .limit(MAX_LISTED)
      .execute()
  );
}

async function promptForCall(db: DbOrTx, promptId: string) {
  return db
    .selectFrom("prompts as p")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .select(["p.id", "p.text", "s.first_name", sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker")])
    .where("p.id", "=", promptId)
    .executeTakeFirst();
}

/** Who is asking, the question, then (unless 9 is pressed while it is read) the beep and the recording. */
async function askQuestion(services: VoiceServices, call: Call, promptId: string, greet: boolean) {
  const prompt = await promptForCall(services.db, promptId);
  const s = await script(services, call.language);
  if (!prompt) return s.goodbye("error");
  await updateCall(services.db, call.call_sid, { prompt_id: prompt.id, silent_tries: 0 });
  if (greet) s.say("greeting.known", { name: prompt.first_name });
  s.say("question.asks", { asker: prompt.asker });
  s.sayText(prompt.text);
  const gather = s.gather("key", 1, 2);
  s.say("question.howTo", undefined, gather);
  // A call we placed (decision 027): 0 stops them.
  if (call.direction === "outbound") s.say("callOut.stopHowTo", undefined, gather);
  s.record();
  return s.toString();
}

async function listQuestions(services: VoiceServices, call: Call, greetName: string | null) {
  const prompts = await openPromptsOf(services.db, call.storyteller_id!);
  const s = await script(services, call.language);
  if (greetName) s.say("greeting.known", { name: greetName });
  const gather = s.gather("choose", 1, 8);
  s.say("menu.intro", { count: prompts.length, spokenCount: spokenDigit(call.language, prompts.length) }, gather);
  prompts.forEach((prompt, index) => {
    s.say("menu.item", { digit: spokenDigit(call.language, index + 1), prompt: prompt.text }, gather);
  });
  s.say("menu.none");
  s.response.hangup();
  return s.toString();
}

/** A call just came in: recognise the caller by number, or ask for the question's code. */
async function incoming(services: VoiceServices, params: Record<string, string>) {
  const { db } = services;
  const callSid = params.CallSid ?? "";
  const caller = params.From ?? "";
  const called = params.To ?? services.config.voiceNumber ?? "";
  if (!CALL_SID.test(callSid) || !caller) return (await script(services, "en")).goodbye("error");
  await db
    .insertInto("phone_calls")
    .values({ call_sid: callSid, direction: "inbound", caller_e164: caller, called_e164: called })
    .onConflict((oc) => oc.column("call_sid").doNothing())
    .execute();
  const call = (await loadCall(db, callSid))!;
  if (await isLockedOut(db, caller, called)) return lockedOut(services, call);

  const matches = await db
    .selectFrom("storytellers")
    .select(["id", "first_name", "language"])
    .where("phone_e164", "=", caller)
    .where("is_self", "=", false)
    .limit(2)
    .execute();
  if (matches.length !== 1) return askForCode(services, call, "greeting.unknown");
  const [storyteller] = matches;
  const known = { ...call, storyteller_id: storyteller.id, language: storyteller.language };
  await updateCall(db, callSid, { storyteller_id: storyteller.id, language: storyteller.language });
  const open = await openPromptsOf(db, storyteller.id);
  if (open.length === 1) return askQuestion(services, known, open[0].id, true);
  if (open.length > 1) return listQuestions(services, known, storyteller.first_name);
  return askForCode(services, known, "code.noneWaiting");
}

async function lockedOut(services: VoiceServices, call: Call, lead?: string) {
  const languages = languagesOf(call);
  const s = await script(services, languages[0]);
  if (lead) await sayAll(services, s.response, languages, lead);
  await sayAll(services, s.response, languages, "code.locked");
  s.response.hangup();
  return s.toString();
}

async function enterCode(services: VoiceServices, call: Call, digits: string) {
  const { db, config } = services;
  if (await isLockedOut(db, call.caller_e164, call.called_e164)) return lockedOut(services, call);
  const found = await findOpenPromptByCode(db, config, digits);
  if (found) {
    const opened = { ...call, storyteller_id: found.storytellerId, language: found.language };
    await updateCall(db, call.call_sid, { storyteller_id: found.storytellerId, language: found.language });
    return askQuestion(services, opened, found.promptId, true);
  }
  await db
    .insertInto("phone_code_failures")
    .values({ caller_e164: call.caller_e164, called_e164: call.called_e164 })
    .execute();
  if (await isLockedOut(db, call.caller_e164, call.called_e164)) return lockedOut(services, call, "code.wrong");
  return askForCode(services, call, "code.wrong");
}

async function choose(services: VoiceServices, call: Call, digits: string) {
  if (!call.storyteller_id) return askForCode(services, call);
  const prompts = await openPromptsOf(services.db, call.storyteller_id);
  const picked = prompts[Number(digits) - 1];
  if (!/^[1-8]$/.test(digits) || !picked) return listQuestions(services, call, null);
  return askQuestion(services, call, picked.id, false);
}

/** A key pressed while the question was read: 9 skips it, anything else starts the recording. */
async function key(services: VoiceServices, call: Call, digits: string) {
  const s = await script(services, call.language);
  if (!call.prompt_id) return s.goodbye("error");
  if (digits === "9") {
    await skipPrompt(services, call.prompt_id);
    return offerAnother(services, call, s, "skip.doneMore", "skip.done");
  }
  if (digits === "0" && call.direction === "outbound") {
    await revokeCallConsent(services.db, {
      phoneE164: call.caller_e164,
      source: "call",
      statement: s.t("callOut.stopHowTo"),
    });
    return s.goodbye("callOut.stopped");
  }
  s.say("question.afterBeep");
  s.record();
  return s.toString();
}

async function silence(services: VoiceServices, call: Call) {
  const s = await script(services, call.language);
  if (!call.prompt_id) return s.goodbye("error");
  const tries = call.silent_tries + 1;
  await updateCall(services.db, call.call_sid, { silent_tries: tries });
  if (tries > 1) return s.goodbye("record.silenceAgain");
  s.say("record.silence");
  s.record();
  return s.toString();
}

async function reviewMenu(services: VoiceServices, call: Call, before?: (s: Script) => void) {
  const s = await script(services, call.language);
  before?.(s);
  const gather = s.gather("review", 1, 8);
  s.say("review.menu", undefined, gather);
  return s.toString();
}

/** The recording is in (the caller pressed # or stopped talking; or hung up, and then nothing is said). */
async function recorded(services: VoiceServices, call: Call, params: Record<string, string>) {
  const sid = params.RecordingSid ?? "";
  const seconds = Number(params.RecordingDuration ?? "0");
  if (!RECORDING_SID.test(sid) || !Number.isFinite(seconds) || seconds <= 0) return silence(services, call);
  if (!call.prompt_id) return (await script(services, call.language)).goodbye("error");
  await services.db
    .insertInto("phone_recordings")
    .values({
      recording_sid: sid,
      call_sid: call.call_sid,
      prompt_id: call.prompt_id,
      // Our <Record> stops at MAX_RECORDING_SECONDS; a larger (or absurd) figure is not stored as is.
      duration_seconds: Math.min(Math.round(seconds), MAX_RECORDING_SECONDS),
    })
    .onConflict((oc) => oc.column("recording_sid").doNothing())
    .execute();
  await updateCall(services.db, call.call_sid, { silent_tries: 0 });
  // The call already ended (its status callback came first): the recording is the answer.
  if (call.ended_at) await decidePhoneRecordings(services.db, { callSid: call.call_sid }, "kept");
  return reviewMenu(services, call);
}

/**
 * Where `<Play>` finds a caller's recording while they listen back: our own playback route with a
 * ten-minute token for this call's recording (decision 028), never Twilio's media address, which may
 * require the account's credentials.
 */
export const phonePlaybackUrl = (config: Config, playback: { recordingId: string; callSid: string }) =>
  `${config.APP_URL}/phone/play/${signPhonePlayback(config, playback)}`;

/**
 * The recording a playback token opens, streamed from the voice provider (Twilio with the account's
 * credentials, or the simulator's storage). Null for a bad or expired token, a token whose call is
 * not the recording's, and once the recording is decided (kept, discarded) or its call has ended:
 * only the caller, during their call, listens to it this way.
 */
export async function openPhonePlayback(
  services: Pick<AnswerServices, "db" | "config"> & { voice: Pick<VoiceService, "openRecording"> },
  token: string,
  now = new Date(),
): Promise<RecordingStream | null> {
  const playback = await verifyPhonePlayback(services.config, token, now);
  if (!playback) return null;
  const recording = await services.db
    .selectFrom("phone_recordings as r")
    .innerJoin("phone_calls as c", "c.call_sid", "r.call_sid")
    .select("r.recording_sid")
    .where("r.id", "=", playback.recordingId)
    .where("r.call_sid", "=", playback.callSid)
    .where("r.status", "=", "pending")
    .where("c.ended_at", "is", null)
    .executeTakeFirst();
  if (!recording) return null;
  return services.voice.openRecording(recording.recording_sid);
}

const pendingRecording = (db: DbOrTx, callSid: string) =>
  db
    .selectFrom("phone_recordings")
    .select(["id", "recording_sid"])
    .where("call_sid", "=", callSid)
    .where("status", "=", "pending")
    .orderBy("created_at", "desc")
    .executeTakeFirst();

/** 1 keeps, 2 plays it back, 3 records again; no key at all keeps it too. */
async function review(services: VoiceServices, call: Call, digits: string) {
  const pending = await pendingRecording(services.db, call.call_sid);
  const s = await script(services, call.language);
  if (!pending || !call.prompt_id) return s.goodbye("goodbye");
  if (digits === "2") {
    const url = phonePlaybackUrl(services.config, { recordingId: pending.id, callSid: call.call_sid });
    return reviewMenu(services, call, (before) => {
      before.response.play(url);
    });
  }
  if (digits === "3") {
    await decidePhoneRecordings(services.db, { id: pending.id }, "discarded");
    await updateCall(services.db, call.call_sid, { silent_tries: 0 });
    s.say("review.again");
    s.record();
    return s.toString();
  }
  if (digits !== "1" && digits !== "") return reviewMenu(services, call);
  await decidePhoneRecordings(services.db, { id: pending.id }, "kept");
  const prompt = await promptForCall(services.db, call.prompt_id);
  return offerAnother(services, call, s, "review.keptMore", "review.kept", { asker: prompt?.asker ?? "" });
}

/**
 * Whether the caller may go on to another of the Storyteller's questions. Caller ID that is the
 * Storyteller's own number (or our call-out to it) lists their open questions; a caller who came in
 * with one question's code is asked for the next one's code, so a code still opens only its own
 * question.
 */
async function isStorytellersPhone(db: DbOrTx, call: Call) {
  if (!call.storyteller_id) return false;
  const row = await db
    .selectFrom("storytellers")
    .select("id")
    .where("id", "=", call.storyteller_id)
    .where("phone_e164", "=", call.caller_e164)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * After a question is answered or skipped: with more of the Storyteller's questions open, "press 1
 * to answer another, or hang up" (step `next`); with none, thanks and goodbye.
 */
async function offerAnother(
  services: VoiceServices,
  call: Call,
  s: Script,
  moreKey: string,
  doneKey: string,
  vars?: Record<string, unknown>,
) {
  const more = call.storyteller_id ? await openPromptsOf(services.db, call.storyteller_id) : [];
  if (more.length === 0) return s.goodbye(doneKey, vars);
  s.say(moreKey, vars);
  const gather = s.gather("next", 1, 8);
  s.say("next.offer", undefined, gather);
  return s.goodbye("next.bye");
}

/** "Press 1 to answer another question": the next one (or the list), or its code for a code caller. */
async function next(services: VoiceServices, call: Call, digits: string) {
  const s = await script(services, call.language);
  if (digits !== "1" || !call.storyteller_id) return s.goodbye("next.bye");
  if (!(await isStorytellersPhone(services.db, call))) return askForCode(services, call);
  const open = await openPromptsOf(services.db, call.storyteller_id);
  if (open.length === 0) return s.goodbye("goodbye");
  if (open.length === 1) return askQuestion(services, call, open[0].id, false);
  return listQuestions(services, call, null);
}

/** The call ended (Twilio's status callback): a recording nobody pressed a key for is the answer. */
async function ended(services: VoiceServices, call: Call) {
  await updateCall(services.db, call.call_sid, { ended_at: new Date() });
  await decidePhoneRecordings(services.db, { callSid: call.call_sid }, "kept");
}

/**
 * One webhook request (or simulator step). Returns the TwiML to answer with, or null for the
 * status callback (nothing to say). Never throws for bad input: a confused call hears an apology.
 */
export async function handleVoiceStep(
  services: VoiceServices,
  step: VoiceStep,
  params: Record<string, string>,
): Promise<string | null> {
  if (step === "incoming") return incoming(services, params);
  if (step === "outbound") return outbound(services, params);
  const call = await loadCall(services.db, params.CallSid ?? "");
  if (step === "status") {
    if (call && ["completed", "busy", "failed", "no-answer", "canceled"].includes(params.CallStatus ?? ""))
      await ended(services, call);
    // A call-out's end is its message's outcome (no answer, busy…: decision 027).
    if (params.m)
      await recordCallOutcome(services.db, {
        outboxId: params.m,
        callSid: params.CallSid ?? "",
        status: params.CallStatus ?? "",
      });
    return null;
  }
  if (!call) return (await script(services, "en")).goodbye("error");
  const digits = (params.Digits ?? "").replace(/[^0-9*#]/g, "").slice(0, 12);
  switch (step) {
    case "code":
      return enterCode(services, call, digits.replace(/\D/g, ""));
    case "choose":
      return choose(services, call, digits);
    case "key":
      return key(services, call, digits);
    case "recorded":
      return recorded(services, call, params);
    case "silence":
      return silence(services, call);
    case "review":
      return review(services, call, digits);
    case "next":
      return next(services, call, digits);
  }
}

/**
 * A call we placed (call-out) was answered. A person hears the question as a caller would; an
 * answering machine (Twilio's AnsweredBy) gets a short message with the number and code instead.
 */
async function outbound(services: VoiceServices, params: Record<string, string>) {
  const { db, config } = services;
  const callSid = params.CallSid ?? "";
  if (CALL_SID.test(callSid) && params.m)
    await recordCallOut(db, { callSid, outboxId: params.m, from: params.From ?? config.voiceNumber ?? "" });
  const call = CALL_SID.test(callSid) ? await loadCall(db, callSid) : null;
  if (!call?.prompt_id) return (await script(services, call?.language ?? "en")).goodbye("error");
  const answeredBy = params.AnsweredBy ?? "unknown";
  if (answeredBy.startsWith("machine") || answeredBy === "fax") {
    const prompt = await promptForCall(db, call.prompt_id);
    const code = await inTransaction(db, (tx) => ensureAnswerCode(tx, config, call.prompt_id!));
    const s = await script(services, call.language);
    s.say("machine", {
      asker: prompt?.asker ?? "",
      number: spokenNumber(config.voiceNumber ?? call.caller_e164, call.language),
      code: spokenCode(code, call.language),
    });
    s.response.hangup();
    await updateCall(db, callSid, { ended_at: new Date() });
    return s.toString();
  }
  return askQuestion(services, call, call.prompt_id, true);
}

export { formatAnswerCode };
