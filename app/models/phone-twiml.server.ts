import twilio from "twilio";
import type VoiceResponse from "twilio/lib/twiml/VoiceResponse";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Language } from "../../db/schema";

// The TwiML a call hears, built with the SDK's VoiceResponse: the webhook steps its keys and
// recordings come back to, the voice per language, and the few shapes every answer takes (say,
// gather keys, record, hang up). What is said is phone-script.server.ts's; when, phone-call.server.ts's.

/** The `?step=` of the voice webhook URL: where each of Twilio's requests lands in the call. */
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

export const MAX_RECORDING_SECONDS = 300;

export const voiceOf = (language: Language) =>
  language === "hi"
    ? ({ voice: "Polly.Aditi", language: "hi-IN" } as const)
    : ({ voice: "Polly.Joanna", language: "en-US" } as const);

export const voiceWebhookUrl = (config: Pick<Config, "APP_URL">, step: VoiceStep) =>
  `${config.APP_URL}/webhooks/twilio/voice?step=${step}`;

/** One TwiML answer in one language: translated lines said in that language's voice. */
export class Script {
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
  /** Any number of keys, ended by # (not sent) or by `timeout` seconds without one. */
  gatherUntilHash(step: VoiceStep, timeout: number) {
    return this.response.gather({
      input: ["dtmf"],
      finishOnKey: "#",
      timeout,
      action: voiceWebhookUrl(this.config, step),
      method: "POST",
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
