import type { Config } from "~/config.server";
import type { VoiceService } from "./voice-simulator.server";

/**
 * Call-out as an outbox provider (decision 027): a prompt's call is an outbox message of channel
 * "call", claimed, placed and reconciled like a text. Placing it is the voice service's
 * createCall; the call's webhooks carry the message's id (`m`), so the call finds its prompt even
 * if the worker died before it could record what it placed.
 */
export interface CallService {
  readonly name: VoiceService["name"];
  /** Places the call; resolves with its CallSid (PermanentSendError: don't retry). */
  send(message: { id: string; to: string }): Promise<string>;
  /**
   * After a crash mid-send: the CallSid of this call if the provider placed it (at or after `since`),
   * never one of `exclude` (the calls other messages to the number are known to have placed).
   */
  findSent(message: { id: string; to: string }, since: Date, exclude?: ReadonlySet<string>): Promise<string | null>;
}

/** The voice webhook for a step of a call-out, with the outbox message it carries. */
export const callOutWebhookUrl = (config: Pick<Config, "APP_URL">, step: "outbound" | "status", messageId: string) =>
  `${config.APP_URL}/webhooks/twilio/voice?step=${step}&m=${messageId}`;

export function createCallService(config: Pick<Config, "APP_URL">, voice: VoiceService): CallService {
  return {
    name: voice.name,
    send: (message) =>
      voice.createCall({
        to: message.to,
        url: callOutWebhookUrl(config, "outbound", message.id),
        statusCallback: callOutWebhookUrl(config, "status", message.id),
      }),
    findSent: (message, since, exclude) => voice.findCall({ to: message.to, since, exclude }),
  };
}
