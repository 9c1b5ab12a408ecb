import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { storageKeys } from "./storage-keys";
import type { StorageService } from "./storage.server";

// What answering by phone needs from a voice provider, and the simulator's one; Twilio's is in
// voice.server.ts, kept apart so that Twilio's SDK loads only where it is used.

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
  /**
   * Streams the recording for the caller to listen back (our playback route, decision 022); null
   * when the provider no longer has it; throws when it cannot be reached.
   */
  openRecording(recordingSid: string): Promise<RecordingStream | null>;
  /** Starts a call to `to` that asks `url` what to say (call-out); resolves with the call's id. */
  createCall(input: { to: string; url: string; statusCallback: string }): Promise<string>;
  /** After a crash mid-call-out: the id of a call to `to` placed at or after `since`, else null. */
  /** A call to `to` placed at or after `since`, not one of `exclude` (calls other messages placed). */
  findCall(input: { to: string; since: Date; exclude?: ReadonlySet<string> }): Promise<string | null>;
}

export type RecordingStream = { body: ReadableStream<Uint8Array>; contentType: string; size: number | null };

export const checkSid = (sid: string) => {
  if (!RECORDING_SID.test(sid)) throw new Error("not a recording id");
  return sid;
};

/**
 * Without Twilio: the simulator's "spoken answer" is a file the tester uploads, kept in storage
 * until the recording job takes it, as Twilio keeps a recording until we delete it.
 */
export function createSimulatedVoice(storage: StorageService): VoiceService {
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
    async openRecording(recordingSid) {
      const stored = await storage.get(storageKeys.phoneSimulatorRecording(checkSid(recordingSid)));
      // The simulator asks for a WAV file (its checks accept any audio; browsers sniff the rest).
      return stored && { body: stored.body, contentType: "audio/wav", size: stored.size };
    },
    async createCall() {
      return `CA${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
    },
    // A simulated call leaves no trace to find: placing it again is harmless.
    async findCall() {
      return null;
    },
  };
}
