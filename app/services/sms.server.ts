import twilio from "twilio";
import type { Config } from "~/config.server";
import { log } from "./logger.server";
import { isPermanentStatus, PermanentSendError } from "./send-errors.server";

export type SmsMessage = { id: string; to: string; text: string };

export interface SmsService {
  readonly name: "outbox" | "twilio";
  /** Hands the text to the provider; resolves with its message id (PermanentSendError: don't retry). */
  send(message: SmsMessage): Promise<string>;
  /** After a crash mid-send: the provider's id for this text if it accepted it (at or after `since`), else null. */
  findSent(message: SmsMessage, since: Date): Promise<string | null>;
}

export function createOutboxSms(options: { print: boolean }): SmsService {
  return {
    name: "outbox",
    async send(message) {
      if (options.print) log.info({ module: "outbox" }, `text to ${message.to}: ${message.text}`);
      return `outbox-${message.id}`;
    },
    async findSent(message) {
      return `outbox-${message.id}`;
    },
  };
}

export function createTwilioSms(
  config: Pick<
    Config,
    "TWILIO_ACCOUNT_SID" | "TWILIO_AUTH_TOKEN" | "TWILIO_FROM_NUMBER" | "TWILIO_API_URL" | "APP_URL"
  >,
): SmsService {
  const client = twilio(config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN, { autoRetry: true, maxRetries: 3 });
  // Only tests point this elsewhere (a local server speaking Twilio's API).
  if (config.TWILIO_API_URL) client.api.baseUrl = config.TWILIO_API_URL;
  return {
    name: "twilio",
    async send(message) {
      const result = await client.messages
        .create({
          to: message.to,
          from: config.TWILIO_FROM_NUMBER,
          body: message.text,
          // Carries our id, so a status report also reconciles a send whose worker died.
          statusCallback: `${config.APP_URL}/webhooks/twilio/status?m=${message.id}`,
        })
        .catch((error: { status?: number; code?: number; message?: string }) => {
          if (isPermanentStatus(error.status))
            throw new PermanentSendError(`Twilio ${error.code ?? error.status}: ${error.message}`);
          throw error;
        });
      return result.sid;
    },
    // Twilio keeps no metadata of ours on a message: the same text to the same number since the attempt is it.
    async findSent(message, since) {
      const recent = await client.messages.list({ to: message.to, from: config.TWILIO_FROM_NUMBER, limit: 20 });
      const match = recent.find((m) => m.body === message.text && m.dateCreated.getTime() >= since.getTime() - 60_000);
      return match?.sid ?? null;
    },
  };
}

export function createSmsService(config: Config): SmsService {
  return config.smsUsesOutbox ? createOutboxSms({ print: config.NODE_ENV === "development" }) : createTwilioSms(config);
}
