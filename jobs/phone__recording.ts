import type { JobTask } from "~/services/jobs.server";
import type { JobDeps } from "./task-list";

/** Fetches a phone answer's recording into the answer flow, then deletes it at Twilio (see processPhoneRecording). */
export const phoneRecording =
  (deps: Pick<JobDeps, "db" | "config" | "storage">): JobTask<"phone__recording"> =>
  async (payload) => {
    // Loaded when a phone job runs, not with the task list: Twilio's SDK and the audio checks are
    // large, and the layer lint walks every import of each file that imports the task list.
    const [{ processPhoneRecording }, { createVoiceService }] = await Promise.all([
      import("~/models/phone-recording.server"),
      import("~/services/voice.server"),
    ]);
    await processPhoneRecording({ ...deps, voice: createVoiceService(deps.config, deps.storage) }, payload.recordingId);
  };
