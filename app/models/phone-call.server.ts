import { sql } from "kysely";
import type { Config } from "~/config.server";
import { signPhonePlayback, verifyPhonePlayback } from "~/services/tokens.server";
import { CALL_SID, RECORDING_SID, type RecordingStream, type VoiceService } from "~/services/voice.server";
import { callerE164, countryOfNumber } from "~/utils/phone.server";
import { voiceLineFor } from "~/utils/voice-lines.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";
import { ensureAnswerCode, findOpenPromptByCode, formatAnswerCode, looksLikeCode } from "./answer-code.server";
import { type AnswerServices, skipPrompt } from "./answer.server";
import { revokeCallConsent } from "./call-consent.server";
import { recordCallOut, recordCallOutcome } from "./call-out.server";
import { codeEntryWaitMs, recordWrongCode } from "./phone-code-limits.server";
import {
  answeringMachine,
  askForCode,
  tryLater,
  offerAnother,
  question,
  questionMenu,
  reviewMenu,
  script,
} from "./phone-script.server";
import { MAX_RECORDING_SECONDS, type Script, type VoiceStep } from "./phone-twiml.server";
import { decidePhoneRecordings } from "./phone-upkeep.server";

/**
 * Answering by phone (decision 022): every Twilio voice webhook, and the simulator in /dev/outbox,
 * lands in `handleVoiceStep`, which keeps the call's state in `phone_calls` and moves it on by the
 * step (the `?step=` of the webhook URL) and the keys pressed. What the caller hears is
 * phone-script.server.ts's; the TwiML's shape, phone-twiml.server.ts's.
 */
export { MAX_RECORDING_SECONDS, VOICE_STEPS, type VoiceStep, voiceStepSchema } from "./phone-twiml.server";
export { spokenCode, spokenDigit, spokenNumber } from "./phone-script.server";

export type VoiceServices = AnswerServices;

/** Keys 1–8 pick a question; 9 is "skip". */
const MAX_LISTED = 8;

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

/** The question (greeting the Storyteller by name when `greet`), then the beep and the recording. */
async function askQuestion(services: VoiceServices, call: Call, promptId: string, greet: boolean) {
  const prompt = await promptForCall(services.db, promptId);
  const s = await script(services, call.language);
  if (!prompt) return s.goodbye("error");
  await updateCall(services.db, call.call_sid, { prompt_id: prompt.id, silent_tries: 0 });
  return question(s, {
    text: prompt.text,
    asker: prompt.asker,
    greetName: greet ? prompt.first_name : null,
    calledOut: call.direction === "outbound",
  });
}

async function listQuestions(services: VoiceServices, call: Call, greetName: string | null) {
  const prompts = await openPromptsOf(services.db, call.storyteller_id!);
  return questionMenu(await script(services, call.language), prompts, greetName);
}

/** A call just came in: recognise the caller by number, or ask for the question's code. */
async function incoming(services: VoiceServices, params: Record<string, string>) {
  const { db } = services;
  const callSid = params.CallSid ?? "";
  const called = params.To ?? services.config.voiceNumber ?? "";
  // Matched against numbers stored in E.164, however the carrier wrote it; a withheld ID stays as sent.
  const caller = callerE164(params.From ?? "", called) ?? params.From ?? "";
  if (!CALL_SID.test(callSid) || !caller) return (await script(services, "en")).goodbye("error");
  await db
    .insertInto("phone_calls")
    .values({ call_sid: callSid, direction: "inbound", caller_e164: caller, called_e164: called })
    .onConflict((oc) => oc.column("call_sid").doNothing())
    .execute();
  const call = (await loadCall(db, callSid))!;
  const wait = await codeEntryWaitMs(db, caller, called);
  if (wait) return tryLater(services, call, wait);

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

/**
 * The digits entered for a code. A caller who must wait (decision 022) is told so and the call
 * ends, whatever they entered; digits too short or too long to be a code are asked for again
 * without counting as a guess.
 */
async function enterCode(services: VoiceServices, call: Call, digits: string) {
  const { db, config } = services;
  const caller = call.caller_e164;
  const wait = await codeEntryWaitMs(db, caller, call.called_e164);
  if (wait) return tryLater(services, call, wait);
  const found = await findOpenPromptByCode(db, config, digits);
  if (found) {
    const opened = { ...call, storyteller_id: found.storytellerId, language: found.language };
    await updateCall(db, call.call_sid, { storyteller_id: found.storytellerId, language: found.language });
    return askQuestion(services, opened, found.promptId, true);
  }
  if (!looksLikeCode(digits)) return askForCode(services, call, "code.wrong");
  await recordWrongCode(db, config, { caller, called: call.called_e164, digits });
  const after = await codeEntryWaitMs(db, caller, call.called_e164);
  return after ? tryLater(services, call, after, "code.wrong") : askForCode(services, call, "code.wrong");
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
    return offerAnotherQuestion(services, call, s, "skip.doneMore", "skip.done");
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
  return reviewMenu(services, call.language);
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
    return reviewMenu(services, call.language, (before) => {
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
  if (digits !== "1" && digits !== "") return reviewMenu(services, call.language);
  await decidePhoneRecordings(services.db, { id: pending.id }, "kept");
  const prompt = await promptForCall(services.db, call.prompt_id);
  return offerAnotherQuestion(services, call, s, "review.keptMore", "review.kept", { asker: prompt?.asker ?? "" });
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

/** With more of the Storyteller's questions open, the offer of another; else `doneKey` and goodbye. */
async function offerAnotherQuestion(
  services: VoiceServices,
  call: Call,
  s: Script,
  moreKey: string,
  doneKey: string,
  vars?: Record<string, unknown>,
) {
  const more = call.storyteller_id ? await openPromptsOf(services.db, call.storyteller_id) : [];
  return offerAnother(s, more.length > 0, moreKey, doneKey, vars);
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
  // Longer than any code, so that an overlong entry is refused rather than cut to one.
  const digits = (params.Digits ?? "").replace(/[^0-9*#]/g, "").slice(0, 20);
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
    const twiml = answeringMachine(s, {
      asker: prompt?.asker ?? "",
      number: voiceLineFor(config, countryOfNumber(call.caller_e164)) ?? config.voiceNumber ?? "",
      code,
    });
    await updateCall(db, callSid, { ended_at: new Date() });
    return twiml;
  }
  return askQuestion(services, call, call.prompt_id, true);
}

export { formatAnswerCode };
