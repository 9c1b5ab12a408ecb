import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { log } from "~/services/logger.server";
import type { VoiceService } from "~/services/voice.server";
import { type AnswerServices, acceptRecording } from "./answer.server";

export type PhoneRecordingOutcome = "stored" | "discarded" | "rejected" | "waiting" | "nothing-to-do";

const setStatus = (
  services: AnswerServices,
  id: string,
  values: { status: "stored" | "done" | "rejected"; answer_id?: string; error?: string },
) =>
  services.db
    .updateTable("phone_recordings")
    .set({ ...values, updated_at: new Date() })
    .where("id", "=", id)
    .execute();

/**
 * The recording job's work (decision 022). A kept recording is copied from Twilio (with the account's
 * credentials), checked and stored exactly like an upload, and becomes the prompt's answer (marked as
 * by phone); only then is it deleted at Twilio. A discarded one ("record again") is only deleted.
 * Any failure throws, so the job retries; the answer's upload id (`phone:` + the recording id) makes
 * a retry after a half-finished run the same answer, never a second one.
 */
export async function processPhoneRecording(
  services: AnswerServices & { voice: VoiceService },
  recordingId: string,
): Promise<PhoneRecordingOutcome> {
  const { db, voice } = services;
  const recording = await db
    .selectFrom("phone_recordings")
    .innerJoin("phone_calls", "phone_calls.call_sid", "phone_recordings.call_sid")
    .select([
      "phone_recordings.id",
      "phone_recordings.recording_sid",
      "phone_recordings.prompt_id",
      "phone_recordings.status",
      "phone_calls.caller_e164",
    ])
    .where("phone_recordings.id", "=", recordingId)
    .executeTakeFirst();
  if (!recording) return "nothing-to-do";
  if (recording.status === "pending") return "waiting";
  if (recording.status === "done" || recording.status === "rejected") return "nothing-to-do";

  let outcome: PhoneRecordingOutcome = recording.status === "discarded" ? "discarded" : "stored";
  if (recording.status === "kept") {
    if (recording.prompt_id) {
      const folder = await mkdtemp(path.join(tmpdir(), "heirloom-phone-"));
      try {
        const file = path.join(folder, "recording");
        await voice.fetchRecording(recording.recording_sid, file);
        const result = await acceptRecording(services, {
          promptId: recording.prompt_id,
          file,
          isPrivate: false,
          uploadId: `phone:${recording.recording_sid}`,
          viaPhone: true,
          fromPhone: recording.caller_e164,
        });
        if (!result.ok && result.problem !== "gone") {
          // Not an answer we can keep (not audio, too long): left at Twilio for a person to look at.
          log.warn({ module: "phone", recordingId, problem: result.problem }, "phone recording refused");
          await setStatus(services, recording.id, { status: "rejected", error: result.problem });
          return "rejected";
        }
        await setStatus(
          services,
          recording.id,
          result.ok ? { status: "stored", answer_id: result.answerId } : { status: "stored", error: "gone" },
        );
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    } else {
      outcome = "discarded"; // its prompt was deleted meanwhile
    }
  }
  await voice.deleteRecording(recording.recording_sid);
  await setStatus(services, recording.id, { status: "done" });
  return outcome;
}
