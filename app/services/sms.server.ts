import twilio from "twilio";
import type { Config } from "~/config.server";

export type SmsMessage = { id: string; to: string; text: string };

export interface SmsService {
  readonly name: "outbox" | "twilio";
  /** Hands the text to the provider; resolves with the provider's message id. */
  send(message: SmsMessage): Promise<string>;
}

export function createOutboxSms(options: { print: boolean }): SmsService {
  return {
    name: "outbox",
    async send(message) {
      if (options.print) console.log(`[outbox] text to ${message.to}: ${message.text}\n`);
      return `outbox-${message.id}`;
    },
  };
}

export function createTwilioSms(
  config: Pick<Config, "TWILIO_ACCOUNT_SID" | "TWILIO_AUTH_TOKEN" | "TWILIO_FROM_NUMBER" | "TWILIO_API_URL" | "APP_URL">,
): SmsService {
  const client = twilio(config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN, { autoRetry: true, maxRetries: 3 });
  // Only tests point this elsewhere (a local server speaking Twilio's API).
  if (config.TWILIO_API_URL) client.api.baseUrl = config.TWILIO_API_URL;
  return {
    name: "twilio",
    async send(message) {
      const result = await client.messages.create({
        to: message.to,
        from: config.TWILIO_FROM_NUMBER,
        body: message.text,
        // The status callback (/webhooks/twilio/status) is added with the delivery ledger.
      });
      return result.sid;
    },
  };
}

export function createSmsService(config: Config): SmsService {
  return config.smsUsesOutbox
    ? createOutboxSms({ print: config.NODE_ENV === "development" })
    : createTwilioSms(config);
}
