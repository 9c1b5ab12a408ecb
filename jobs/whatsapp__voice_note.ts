import { processWhatsAppVoiceNote } from "~/models/whatsapp.server";
import type { JobTask } from "~/services/jobs.server";
import type { JobDeps } from "./task-list";

/** Fetches a WhatsApp voice note into the answer flow, answers her, then deletes it at Twilio. */
export const whatsappVoiceNote =
  (deps: Pick<JobDeps, "db" | "config" | "storage" | "whatsapp">): JobTask<"whatsapp__voice_note"> =>
  async (payload) => {
    if (!deps.whatsapp) throw new Error("no WhatsApp service for a voice note");
    await processWhatsAppVoiceNote({ ...deps, whatsapp: deps.whatsapp }, payload.noteId);
  };
