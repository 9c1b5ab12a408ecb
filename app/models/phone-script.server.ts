import type VoiceResponse from "twilio/lib/twiml/VoiceResponse";
import { getServerT } from "~/i18n/i18next.server";
import { nationalFormat } from "~/utils/phone.server";
import type { Language } from "../../db/schema";
import { codeGroups } from "./answer-code.server";
import type { AnswerServices } from "./answer.server";
import { Script, voiceOf } from "./phone-twiml.server";

// What a call hears, line by line (locales/*/phone.json): numbers said digit by digit, both
// languages to a caller we do not know yet, and each scene of the call as TwiML. No state: the
// state machine (phone-call.server.ts) decides which scene plays and gives it what it needs.

type Services = Pick<AnswerServices, "config">;

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
  // Other countries' lines are dialled nationally, in the groups their people write ("011 2345 6789").
  if (!e164.startsWith("+1"))
    return nationalFormat(e164)
      .split(/[^\d]+/)
      .filter(Boolean)
      .map((g) => spokenDigits(language, g))
      .join(", ");
  const national = e164.slice(2);
  const groups = national.length === 10 ? [national.slice(0, 3), national.slice(3, 6), national.slice(6)] : [national];
  return groups.map((g) => spokenDigits(language, g)).join(", ");
}
/** An answer code in its printed groups, digit by digit ("1 2 3, 4 5 6, 7 8 9 0"). */
export const spokenCode = (code: string, language: Language = "en") =>
  codeGroups(code)
    .map((group) => spokenDigits(language, group))
    .join(", ");

export async function script(services: Services, language: Language) {
  const t = await getServerT(language, services, "phone");
  return new Script(services.config, (key, vars) => t(key, vars), language);
}

/** Who is listening, as far as the call knows: a Storyteller (their language) or not yet. */
type Listener = { language: Language; storyteller_id: string | null };

/** The Storyteller's language, or both when we do not know who is calling yet. */
const languagesOf = (listener: Listener): Language[] => (listener.storyteller_id ? [listener.language] : ["en", "hi"]);

async function sayAll(
  services: Services,
  node: Pick<VoiceResponse, "say">,
  languages: Language[],
  key: string,
  vars?: Record<string, unknown>,
) {
  for (const language of languages) node.say(voiceOf(language), await text(services, language, key, vars));
}

async function text(services: Services, language: Language, key: string, vars?: Record<string, unknown>) {
  return (await getServerT(language, services, "phone"))(key, vars);
}

/** "Enter your answer code, then the hash key" (in both languages for an unknown caller). */
export async function askForCode(services: Services, listener: Listener, lead?: string) {
  const languages = languagesOf(listener);
  const s = await script(services, languages[0]);
  if (lead) await sayAll(services, s.response, languages, lead);
  // Codes are 6 to 12 digits: # ends the entry, and so do 8 seconds without a key.
  const gather = s.gatherUntilHash("code", 8);
  await sayAll(services, gather, languages, "code.prompt");
  await sayAll(services, s.response, languages, "code.none");
  s.response.hangup();
  return s.toString();
}

/** Too many wrong codes from this phone: the caller hears how long to wait, and the call ends. */
export async function tryLater(services: Services, listener: Listener, waitMs: number, lead?: string) {
  const languages = languagesOf(listener);
  const s = await script(services, languages[0]);
  if (lead) await sayAll(services, s.response, languages, lead);
  const minutes = Math.ceil(waitMs / 60_000);
  const [key, count] = minutes < 120 ? ["code.lockedMinutes", minutes] : ["code.lockedHours", Math.ceil(minutes / 60)];
  await sayAll(services, s.response, languages, key as string, { count });
  s.response.hangup();
  return s.toString();
}

/** Who is asking, the question, then (unless 9 is pressed while it is read) the beep and the recording. */
export function question(
  s: Script,
  question: { text: string; asker: string; greetName: string | null; calledOut: boolean },
) {
  if (question.greetName) s.say("greeting.known", { name: question.greetName });
  s.say("question.asks", { asker: question.asker });
  s.sayText(question.text);
  const gather = s.gather("key", 1, 2);
  s.say("question.howTo", undefined, gather);
  // A call we placed (decision 027): 0 stops them.
  if (question.calledOut) s.say("callOut.stopHowTo", undefined, gather);
  s.record();
  return s.toString();
}

/** "You have N questions: press 1 for …". */
export function questionMenu(s: Script, prompts: { text: string }[], greetName: string | null) {
  if (greetName) s.say("greeting.known", { name: greetName });
  const gather = s.gather("choose", 1, 8);
  s.say("menu.intro", { count: prompts.length, spokenCount: spokenDigit(s.language, prompts.length) }, gather);
  prompts.forEach((prompt, index) => {
    s.say("menu.item", { digit: spokenDigit(s.language, index + 1), prompt: prompt.text }, gather);
  });
  s.say("menu.none");
  s.response.hangup();
  return s.toString();
}

/** 1 keeps the recording, 2 plays it back, 3 records again. */
export async function reviewMenu(services: Services, language: Language, before?: (s: Script) => void) {
  const s = await script(services, language);
  before?.(s);
  const gather = s.gather("review", 1, 8);
  s.say("review.menu", undefined, gather);
  return s.toString();
}

/**
 * After a question is answered or skipped: with more of the Storyteller's questions open, "press 1
 * to answer another, or hang up" (step `next`); with none, thanks and goodbye.
 */
export function offerAnother(
  s: Script,
  moreOpen: boolean,
  moreKey: string,
  doneKey: string,
  vars?: Record<string, unknown>,
) {
  if (!moreOpen) return s.goodbye(doneKey, vars);
  s.say(moreKey, vars);
  const gather = s.gather("next", 1, 8);
  s.say("next.offer", undefined, gather);
  return s.goodbye("next.bye");
}

/** An answering machine: the question's asker, the number to call back and the code, then goodbye. */
export function answeringMachine(s: Script, message: { asker: string; number: string; code: string }) {
  s.say("machine", {
    asker: message.asker,
    number: spokenNumber(message.number, s.language),
    code: spokenCode(message.code, s.language),
  });
  s.response.hangup();
  return s.toString();
}
