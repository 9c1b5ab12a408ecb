import { processPhoneRecording } from "~/models/phone-recording.server";
import type { JobTask } from "~/services/jobs.server";
import { createSimulatedVoice } from "~/services/voice-simulator.server";
import type { JobDeps } from "./task-list";

/** Fetches a phone answer's recording into the answer flow, then deletes it at Twilio (see processPhoneRecording). */
export const phoneRecording =
  (deps: Pick<JobDeps, "db" | "config" | "storage" | "voice">): JobTask<"phone__recording"> =>
  async (payload) => {
    // Twilio's client comes from server/main.ts (its SDK stays out of the task list's imports);
    // without Twilio the simulator's recordings are in storage.
    const voice = deps.voice ?? (deps.config.voiceUsesSimulator ? createSimulatedVoice(deps.storage) : null);
    if (!voice) throw new Error("no voice service for a phone recording");
    await processPhoneRecording({ ...deps, voice }, payload.recordingId);
  };
