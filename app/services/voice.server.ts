import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import twilio from "twilio";
import type { Config } from "~/config.server";
import { MAX_UPLOAD_BYTES } from "./audio-check.server";
import { storageKeys } from "./storage-keys";
import type { StorageService } from "./storage.server";

/** Twilio's recording ids: RE and 32 hex digits (the only thing a recording is known by here). */
export const RECORDING_SID = /^RE[0-9a-f]{32}$/;
export const CALL_SID = /^CA[0-9a-f]{32}$/;

/** The calling side of answering by phone: Twilio Programmable Voice, or the simulator in /dev/outbox. */
export interface VoiceService {
  readonly name: "simulator" | "twilio";
  /** Copies the recording into `file`; throws when it cannot (the job retries; Twilio keeps it meanwhile). */
  fetchRecording(recordingSid: string, file: string): Promise<void>;
  /** Deletes it at the provider (missing is fine). */
  deleteRecording(recordingSid: string): Promise<void>;
  /** Where `<Play>` finds the recording while the caller listens back. */
  playUrl(recordingSid: string): string;
  /** Starts a call to `to` that asks `url` what to say (call-out); resolves with the call's id. */
  createCall(input: { to: string; url: string; statusCallback: string }): Promise<string>;
}

const checkSid = (sid: string) => {
  if (!RECORDING_SID.test(sid)) throw new Error("not a recording id");
  return sid;
};

/** Stops a download that passes what an answer may weigh (the file is then refused as too large). */
function capped(limit: number) {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.byteLength;
      done(size > limit ? new Error("recording larger than an answer may be") : null, chunk);
    },
  });
}

type TwilioSettings = Pick<
  Config,
  "TWILIO_ACCOUNT_SID" | "TWILIO_AUTH_TOKEN" | "TWILIO_API_URL" | "TWILIO_VOICE_NUMBER"
>;

export function createTwilioVoice(config: TwilioSettings): VoiceService {
  const accountSid = config.TWILIO_ACCOUNT_SID!;
  const client = twilio(accountSid, config.TWILIO_AUTH_TOKEN, { autoRetry: true, maxRetries: 3 });
  // Only tests point this elsewhere (a local server speaking Twilio's API).
  const base = config.TWILIO_API_URL ?? "https://api.twilio.com";
  if (config.TWILIO_API_URL) client.api.baseUrl = config.TWILIO_API_URL;
  const mediaUrl = (sid: string) => `${base}/2010-04-01/Accounts/${accountSid}/Recordings/${checkSid(sid)}`;
  return {
    name: "twilio",
    async fetchRecording(recordingSid, file) {
      // Built from our account and the id, never from a URL a request handed us.
      const response = await fetch(`${mediaUrl(recordingSid)}.wav`, {
        headers: {
          Authorization: `Basic ${Buffer.from(`${accountSid}:${config.TWILIO_AUTH_TOKEN}`).toString("base64")}`,
        },
        redirect: "follow",
        signal: AbortSignal.timeout(120_000),
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new Error(`Twilio recording fetch failed: HTTP ${response.status}`);
      }
      await pipeline(
        Readable.fromWeb(response.body as NodeWebReadableStream<Uint8Array>),
        capped(MAX_UPLOAD_BYTES),
        createWriteStream(file, { mode: 0o600 }),
      );
    },
    async deleteRecording(recordingSid) {
      await client
        .recordings(checkSid(recordingSid))
        .remove()
        .catch((error: { status?: number }) => {
          if (error.status !== 404) throw error;
        });
    },
    playUrl: (recordingSid) => `${mediaUrl(recordingSid)}.mp3`,
    async createCall(input) {
      const call = await client.calls.create({
        to: input.to,
        from: config.TWILIO_VOICE_NUMBER!,
        url: input.url,
        method: "POST",
        statusCallback: input.statusCallback,
        statusCallbackMethod: "POST",
        statusCallbackEvent: ["completed"],
        // An answering machine hears a short message, not the question (see the voice webhook).
        machineDetection: "Enable",
      });
      return call.sid;
    },
  };
}

/**
 * Without Twilio: the simulator's "spoken answer" is a file the tester uploads, kept in storage
 * until the recording job takes it, as Twilio keeps a recording until we delete it.
 */
export function createSimulatedVoice(storage: StorageService, config: Pick<Config, "APP_URL">): VoiceService {
  return {
    name: "simulator",
    async fetchRecording(recordingSid, file) {
      const stored = await storage.get(storageKeys.phoneSimulatorRecording(checkSid(recordingSid)));
      if (!stored) throw new Error("simulated recording missing");
      await pipeline(
        Readable.fromWeb(stored.body as NodeWebReadableStream<Uint8Array>),
        createWriteStream(file, { mode: 0o600 }),
      );
    },
    async deleteRecording(recordingSid) {
      await storage.delete(storageKeys.phoneSimulatorRecording(checkSid(recordingSid)));
    },
    playUrl: (recordingSid) => `${config.APP_URL}/dev/outbox?recording=${checkSid(recordingSid)}`,
    async createCall() {
      return `CA${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
    },
  };
}

export function createVoiceService(config: Config, storage: StorageService): VoiceService {
  return config.voiceUsesSimulator ? createSimulatedVoice(storage, config) : createTwilioVoice(config);
}
