import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import twilio from "twilio";
import type { Config } from "~/config.server";
import { countryOfNumber } from "~/utils/phone.server";
import { voiceLineFor } from "~/utils/voice-lines.server";
import { MAX_UPLOAD_BYTES } from "./audio-check.server";
import { isPermanentStatus, PermanentSendError } from "./send-errors.server";
import type { StorageService } from "./storage.server";
import { checkSid, createSimulatedVoice, type VoiceService } from "./voice-simulator.server";

export {
  CALL_SID,
  RECORDING_SID,
  createSimulatedVoice,
  type RecordingStream,
  type VoiceService,
} from "./voice-simulator.server";

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

type TwilioSettings = Pick<Config, "TWILIO_ACCOUNT_SID" | "TWILIO_AUTH_TOKEN" | "TWILIO_API_URL" | "voiceLines">;

export function createTwilioVoice(config: TwilioSettings): VoiceService {
  const accountSid = config.TWILIO_ACCOUNT_SID!;
  const client = twilio(accountSid, config.TWILIO_AUTH_TOKEN, { autoRetry: true, maxRetries: 3 });
  // Only tests point this elsewhere (a local server speaking Twilio's API).
  const base = config.TWILIO_API_URL ?? "https://api.twilio.com";
  if (config.TWILIO_API_URL) client.api.baseUrl = config.TWILIO_API_URL;
  // She sees (and may call back) her own country's line; a country without one is never called.
  const lineFor = (to: string) => {
    const line = voiceLineFor(config, countryOfNumber(to));
    if (!line) throw new PermanentSendError("no voice line for the number's country");
    return line;
  };
  const basicAuth = `Basic ${Buffer.from(`${accountSid}:${config.TWILIO_AUTH_TOKEN}`).toString("base64")}`;
  const mediaUrl = (sid: string) => `${base}/2010-04-01/Accounts/${accountSid}/Recordings/${checkSid(sid)}`;
  return {
    name: "twilio",
    async fetchRecording(recordingSid, file) {
      // Built from our account and the id, never from a URL a request handed us.
      const response = await fetch(`${mediaUrl(recordingSid)}.wav`, {
        headers: { Authorization: basicAuth },
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
    async openRecording(recordingSid) {
      // Twilio may require HTTP auth for recordings (a recommended account setting), so the caller's
      // <Play> reaches our playback route, which fetches the MP3 here with the account's credentials.
      const response = await fetch(`${mediaUrl(recordingSid)}.mp3`, {
        headers: { Authorization: basicAuth },
        redirect: "follow",
        signal: AbortSignal.timeout(30_000),
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new Error(`Twilio recording fetch failed: HTTP ${response.status}`);
      }
      const size = Number(response.headers.get("content-length"));
      return {
        body: response.body,
        contentType: response.headers.get("content-type")?.startsWith("audio/")
          ? response.headers.get("content-type")!
          : "audio/mpeg",
        size: Number.isSafeInteger(size) && size > 0 ? size : null,
      };
    },
    async createCall(input) {
      const call = await client.calls
        .create({
          to: input.to,
          from: lineFor(input.to),
          url: input.url,
          method: "POST",
          statusCallback: input.statusCallback,
          statusCallbackMethod: "POST",
          statusCallbackEvent: ["completed"],
          // An answering machine hears a short message, not the question (see the voice webhook).
          machineDetection: "Enable",
        })
        .catch((error: { status?: number; code?: number; message?: string }) => {
          if (isPermanentStatus(error.status))
            throw new PermanentSendError(`Twilio ${error.code ?? error.status}: ${error.message}`);
          throw error;
        });
      return call.sid;
    },
    // Twilio keeps no metadata of ours on a call: a call from our number to theirs since the attempt,
    // that no other message of ours is known to have placed (several Storytellers may share a
    // number), is it. A few seconds' slack for Twilio's whole-second, other-clock timestamps.
    async findCall(input) {
      const recent = await client.calls.list({ to: input.to, from: lineFor(input.to), limit: 20 });
      const match = recent.find(
        (c) => c.dateCreated.getTime() >= input.since.getTime() - 5_000 && !input.exclude?.has(c.sid),
      );
      return match?.sid ?? null;
    },
  };
}

export function createVoiceService(config: Config, storage: StorageService): VoiceService {
  return config.voiceUsesSimulator ? createSimulatedVoice(storage) : createTwilioVoice(config);
}
