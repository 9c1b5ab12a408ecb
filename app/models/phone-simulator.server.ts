import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { checkAudioFile } from "~/services/audio-check.server";
import { storageKeys } from "~/services/storage-keys";
import { type VoiceServices, type VoiceStep, handleVoiceStep, voiceStepSchema } from "./phone-call.server";

/**
 * The phone simulator in /dev/outbox (decision 022): stands in for Twilio on the embedded default.
 * Each turn calls the very handler Twilio's webhooks reach (handleVoiceStep) with the fields Twilio
 * would send, and reads the TwiML it answers with back into what the caller hears and may do next.
 */
export type SimulatedTurn = {
  callSid: string;
  from: string;
  /**
   * What the caller hears, in order: spoken text, or where their recording is played back, the
   * path of our playback route Twilio's <Play> would fetch (the page plays it the same way).
   */
  heard: (string | { play: string })[];
  /** Keys go to this step (a <Gather>); `empty` also when nothing is pressed. */
  /** numDigits null: any number of keys, ended by # (an answer code). */
  gather: { step: VoiceStep; numDigits: number | null; onEmpty: boolean } | null;
  /** A <Record> follows: a file is the spoken answer, "say nothing" goes to `silenceStep`. */
  record: { step: VoiceStep; silenceStep: VoiceStep | null } | null;
  ended: boolean;
};

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

const decode = (text: string) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_m, name: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[name]!,
  );

const attribute = (attributes: string, name: string) => {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(attributes);
  return match ? decode(match[1]) : null;
};

const stepOf = (url: string | null): VoiceStep | null => {
  if (!url) return null;
  const step = voiceStepSchema.safeParse(new URL(url).searchParams.get("step"));
  return step.success ? step.data : null;
};

/** Our own TwiML (VoiceResponse's output: Say, Play, Gather, Record, Redirect, Hangup) read back. */
export function readTwiml(xml: string) {
  const heard = [...xml.matchAll(/<(Say|Play)\b[^>]*>([^<]*)<\/\1>/g)].map((m) =>
    m[1] === "Say" ? decode(m[2]) : { play: new URL(decode(m[2])).pathname },
  );
  const gatherTag = /<Gather\b([^>]*)>/.exec(xml);
  const recordTag = /<Record\b([^>]*)\/>/.exec(xml);
  const redirect = /<Redirect\b[^>]*>([^<]*)<\/Redirect>/.exec(xml);
  const gatherStep = gatherTag ? stepOf(attribute(gatherTag[1], "action")) : null;
  const recordStep = recordTag ? stepOf(attribute(recordTag[1], "action")) : null;
  return {
    heard,
    gather:
      gatherTag && gatherStep
        ? {
            step: gatherStep,
            // Twilio's default is any number of keys up to finishOnKey (#); we always say one or the other.
            numDigits: attribute(gatherTag[1], "finishOnKey")
              ? null
              : Number(attribute(gatherTag[1], "numDigits") ?? 1),
            onEmpty: attribute(gatherTag[1], "actionOnEmptyResult") === "true",
          }
        : null,
    record: recordStep ? { step: recordStep, silenceStep: redirect ? stepOf(decode(redirect[1])) : null } : null,
    // A <Hangup/> after a <Gather> is only what happens if no key is pressed.
    ended: !gatherTag && !recordTag,
  };
}

async function turn(services: VoiceServices, step: VoiceStep, params: Record<string, string>): Promise<SimulatedTurn> {
  const twiml = await handleVoiceStep(services, step, params);
  const base = { callSid: params.CallSid, from: params.From };
  if (twiml === null) return { ...base, heard: [], gather: null, record: null, ended: true };
  return { ...base, ...readTwiml(twiml) };
}

const callParams = (services: VoiceServices, callSid: string, from: string) => ({
  CallSid: callSid,
  From: from,
  To: services.config.voiceNumber ?? "",
  Direction: "inbound",
});

/** "Call" as `from`: a new call, as Twilio starts one. */
export function simulateCall(services: VoiceServices, from: string) {
  return turn(services, "incoming", { ...callParams(services, `CA${hex(16)}`, from), CallStatus: "ringing" });
}

/** Keys pressed (or none) for the step a <Gather>, or the silence after a <Record>, goes to. */
export function simulateKeys(
  services: VoiceServices,
  call: { callSid: string; from: string; step: VoiceStep; digits: string },
) {
  return turn(services, call.step, { ...callParams(services, call.callSid, call.from), Digits: call.digits });
}

/**
 * A call-out the send job placed with the simulator (an outbox message of channel "call", sent)
 * is picked up, by the Storyteller or by an answering machine: Twilio's request to the call's Url,
 * `m` included. Null when the message is no such call.
 */
export async function simulateCallOutAnswer(
  services: VoiceServices,
  input: { messageId: string; answeredBy: "human" | "machine_end_beep" },
): Promise<SimulatedTurn | null> {
  const message = await services.db
    .selectFrom("outbox_messages")
    .select(["id", "to_address", "provider_message_id"])
    .where("id", "=", input.messageId)
    .where("channel", "=", "call")
    .where("status", "=", "sent")
    .executeTakeFirst();
  if (!message?.provider_message_id) return null;
  return turn(services, "outbound", {
    CallSid: message.provider_message_id,
    From: services.config.voiceNumber ?? "",
    To: message.to_address,
    Direction: "outbound-api",
    AnsweredBy: input.answeredBy,
    m: message.id,
  });
}

/** Hanging up: Twilio's status callback. */
export async function simulateHangUp(services: VoiceServices, call: { callSid: string; from: string }) {
  await handleVoiceStep(services, "status", {
    ...callParams(services, call.callSid, call.from),
    CallStatus: "completed",
  });
  return {
    callSid: call.callSid,
    from: call.from,
    heard: [],
    gather: null,
    record: null,
    ended: true,
  } satisfies SimulatedTurn;
}

/**
 * The spoken answer is a file: it is kept in storage as Twilio keeps a recording (the recording job
 * fetches it from there), and the handler hears of it as of Twilio's RecordingSid and duration.
 * Null when the file is no recording at all (the caller is told on the page).
 */
export async function simulateRecording(
  services: VoiceServices,
  call: { callSid: string; from: string; step: VoiceStep; file: string },
): Promise<SimulatedTurn | null> {
  const check = await checkAudioFile(call.file);
  if (!check.ok) return null;
  const recordingSid = `RE${hex(16)}`;
  await services.storage.putStream(
    storageKeys.phoneSimulatorRecording(recordingSid),
    createReadStream(call.file),
    check.contentType,
  );
  return turn(services, call.step, {
    ...callParams(services, call.callSid, call.from),
    RecordingSid: recordingSid,
    RecordingDuration: String(Math.max(1, Math.round(check.durationMs / 1000))),
    Digits: "#",
  });
}
