import { processPhoneRecording } from "~/models/phone-recording.server";
import type { JobTask } from "~/services/jobs.server";
import { createVoiceService } from "~/services/voice.server";
import type { JobDeps } from "./task-list";

/** Fetches a phone answer's recording into the answer flow, then deletes it at Twilio (see processPhoneRecording). */
export const phoneRecording =
  (deps: Pick<JobDeps, "db" | "config" | "storage">): JobTask<"phone__recording"> =>
  async (payload) => {
    const voice = createVoiceService(deps.config, deps.storage);
    await processPhoneRecording({ ...deps, voice }, payload.recordingId);
  };
