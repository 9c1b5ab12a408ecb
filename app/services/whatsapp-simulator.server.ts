import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { log } from "./logger.server";
import { storageKeys } from "./storage-keys";
import type { StorageService } from "./storage.server";

// What WhatsApp needs from a provider, and the outbox's simulator; Twilio's is in whatsapp.server.ts,
// kept apart so that Twilio's SDK loads only where it is used.

/** Twilio's message and media ids (the only things a voice note is known by here). */
export const MESSAGE_SID = /^(SM|MM)[0-9a-f]{32}$/;
export const MEDIA_SID = /^ME[0-9a-f]{32}$/;

/**
 * A WhatsApp message as the outbox hands it over. A question carries `headers.template` (its
 * language) and `headers.variables` (JSON of the template's numbered variables); a reply inside
 * WhatsApp's 24-hour window is free-form `text`.
 */
export type WhatsAppMessage = { id: string; to: string; text: string; headers: Record<string, string> };
export type WhatsAppMedia = { messageSid: string; mediaSid: string };

export interface WhatsAppService {
  readonly name: "outbox" | "twilio";
  /** Hands the message to the provider; resolves with its message id (PermanentSendError: don't retry). */
  send(message: WhatsAppMessage): Promise<string>;
  /** After a crash mid-send: a message to `to` sent at or after `since`, not one of `exclude`, else null. */
  findSent(message: WhatsAppMessage, since: Date, exclude: ReadonlySet<string>): Promise<string | null>;
  /** Copies a voice note's media into `file` (throws when it cannot: the job retries; Twilio keeps it). */
  fetchMedia(media: WhatsAppMedia, file: string): Promise<void>;
  /** Deletes the media at the provider (missing is fine). */
  deleteMedia(media: WhatsAppMedia): Promise<void>;
}

export const randomSid = (prefix: "SM" | "MM" | "ME") =>
  `${prefix}${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

const checked = ({ mediaSid }: WhatsAppMedia) => {
  if (!MEDIA_SID.test(mediaSid)) throw new Error("not a media id");
  return mediaSid;
};

/**
 * Without Twilio: messages stay in the outbox (shown at /dev/outbox), and a voice note given to the
 * simulator waits in storage until the job takes it, as Twilio keeps media until we delete it.
 */
export function createOutboxWhatsApp(storage: StorageService, options: { print: boolean }): WhatsAppService {
  return {
    name: "outbox",
    async send(message) {
      if (options.print) log.info({ module: "outbox" }, `WhatsApp to ${message.to}: ${message.text}`);
      return `outbox-${message.id}`;
    },
    async findSent(message) {
      return `outbox-${message.id}`;
    },
    async fetchMedia(media, file) {
      const stored = await storage.get(storageKeys.whatsappSimulatorMedia(checked(media)));
      if (!stored) throw new Error("simulated voice note missing");
      await pipeline(
        Readable.fromWeb(stored.body as NodeWebReadableStream<Uint8Array>),
        createWriteStream(file, { mode: 0o600 }),
      );
    },
    async deleteMedia(media) {
      await storage.delete(storageKeys.whatsappSimulatorMedia(checked(media)));
    },
  };
}
