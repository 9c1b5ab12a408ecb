import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import twilio from "twilio";
import type { Config } from "~/config.server";
import { MAX_UPLOAD_BYTES } from "./audio-check.server";
import { isPermanentStatus, PermanentSendError } from "./send-errors.server";
import type { StorageService } from "./storage.server";
import { createOutboxWhatsApp, MEDIA_SID, MESSAGE_SID, type WhatsAppService } from "./whatsapp-simulator.server";

export { type WhatsAppMedia, type WhatsAppMessage, type WhatsAppService } from "./whatsapp-simulator.server";

type TwilioSettings = Pick<
  Config,
  | "TWILIO_ACCOUNT_SID"
  | "TWILIO_AUTH_TOKEN"
  | "TWILIO_API_URL"
  | "TWILIO_WHATSAPP_FROM"
  | "TWILIO_WHATSAPP_CONTENT_SID_EN"
  | "TWILIO_WHATSAPP_CONTENT_SID_HI"
  | "APP_URL"
>;

/** Stops a download that passes what an answer may weigh (the note is then refused as too large). */
function capped(limit: number) {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.byteLength;
      done(size > limit ? new Error("voice note larger than an answer may be") : null, chunk);
    },
  });
}

const permanentOrNot = (error: { status?: number; code?: number; message?: string }) => {
  if (isPermanentStatus(error.status))
    throw new PermanentSendError(`Twilio ${error.code ?? error.status}: ${error.message}`);
  throw error;
};

/** Twilio's Messages API with `whatsapp:` addresses; questions as approved Content templates. */
export function createTwilioWhatsApp(config: TwilioSettings): WhatsAppService {
  const accountSid = config.TWILIO_ACCOUNT_SID!;
  const client = twilio(accountSid, config.TWILIO_AUTH_TOKEN, { autoRetry: true, maxRetries: 3 });
  // Only tests point this elsewhere (a local server speaking Twilio's API).
  const base = config.TWILIO_API_URL ?? "https://api.twilio.com";
  if (config.TWILIO_API_URL) client.api.baseUrl = config.TWILIO_API_URL;
  const from = `whatsapp:${config.TWILIO_WHATSAPP_FROM}`;
  const basicAuth = `Basic ${Buffer.from(`${accountSid}:${config.TWILIO_AUTH_TOKEN}`).toString("base64")}`;
  const contentSids: Record<string, string | undefined> = {
    en: config.TWILIO_WHATSAPP_CONTENT_SID_EN,
    hi: config.TWILIO_WHATSAPP_CONTENT_SID_HI,
  };
  const media = (messageSid: string, mediaSid: string) => {
    if (!MESSAGE_SID.test(messageSid) || !MEDIA_SID.test(mediaSid)) throw new Error("not a message or media id");
    return client.messages(messageSid).media(mediaSid);
  };
  return {
    name: "twilio",
    async send(message) {
      const language = message.headers.template;
      const contentSid = language ? contentSids[language] : undefined;
      if (language && !contentSid) throw new PermanentSendError(`no WhatsApp template for language ${language}`);
      const result = await client.messages
        .create({
          to: `whatsapp:${message.to}`,
          from,
          ...(contentSid ? { contentSid, contentVariables: message.headers.variables } : { body: message.text }),
          // Carries our id, so a status report also reconciles a send whose worker died.
          statusCallback: `${config.APP_URL}/webhooks/twilio/status?m=${message.id}`,
        })
        .catch(permanentOrNot);
      return result.sid;
    },
    // A template's body is Twilio's to render: a message to her since the attempt, not another of ours, is it.
    async findSent(message, since, exclude) {
      const recent = await client.messages.list({ to: `whatsapp:${message.to}`, from, limit: 20 });
      const match = recent.find((m) => !exclude.has(m.sid) && m.dateCreated.getTime() >= since.getTime() - 60_000);
      return match?.sid ?? null;
    },
    async fetchMedia({ messageSid, mediaSid }, file) {
      media(messageSid, mediaSid); // checks the ids
      // Built from our account and the ids, never from a URL a request handed us.
      const url = `${base}/2010-04-01/Accounts/${accountSid}/Messages/${messageSid}/Media/${mediaSid}`;
      const response = await fetch(url, {
        headers: { Authorization: basicAuth },
        redirect: "follow",
        signal: AbortSignal.timeout(120_000),
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new Error(`Twilio media fetch failed: HTTP ${response.status}`);
      }
      await pipeline(
        Readable.fromWeb(response.body as NodeWebReadableStream<Uint8Array>),
        capped(MAX_UPLOAD_BYTES),
        createWriteStream(file, { mode: 0o600 }),
      );
    },
    async deleteMedia({ messageSid, mediaSid }) {
      await media(messageSid, mediaSid)
        .remove()
        .catch((error: { status?: number }) => {
          if (error.status !== 404) throw error;
        });
    },
  };
}

export function createWhatsAppService(config: Config, storage: StorageService): WhatsAppService {
  return config.smsUsesOutbox
    ? createOutboxWhatsApp(storage, { print: config.NODE_ENV === "development" })
    : createTwilioWhatsApp(config);
}
