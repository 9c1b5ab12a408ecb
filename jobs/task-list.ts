import type { Task, TaskList } from "graphile-worker";
import type { Config } from "~/config.server";
import type { AppContext } from "~/context.server";
import { type CallService, createCallService } from "~/services/call-out.server";
import { jobDefinitions, type JobName, type JobPayload, type JobTask } from "~/services/jobs.server";
import type { MailService } from "~/services/mail.server";
import type { SmsService } from "~/services/sms.server";
import type { StorageService } from "~/services/storage.server";
import type { VoiceService } from "~/services/voice-simulator.server";
import type { WhatsAppService } from "~/services/whatsapp-simulator.server";
import { answerTranscode } from "./answer__transcode";
import { answerTranscribe } from "./answer__transcribe";
import { deliverySend } from "./delivery__send";
import { deliverySendBatch } from "./delivery__send_batch";
import { keepsakeBook } from "./keepsake__book";
import { keepsakeExport } from "./keepsake__export";
import { maintenanceCleanup } from "./maintenance__cleanup";
import { outboxSend } from "./outbox__send";
import { phoneRecording } from "./phone__recording";
import { reactionsDigest } from "./reactions__digest";
import { schedulerTick } from "./scheduler__tick";
import { whatsappVoiceNote } from "./whatsapp__voice_note";

/** Jobs run at once in the server process (sends wait on providers, so a few overlap usefully). */
export const WORKER_CONCURRENCY = 4;

/** What tasks may use: created once at boot and shared by every job. */
export type JobDeps = {
  db: AppContext["db"];
  config: Config;
  mail: MailService;
  sms: SmsService;
  storage: StorageService;
  /** Twilio Voice (answering by phone); without it the phone simulator's, when that is on. */
  voice?: VoiceService;
  /** Call-outs placed through `voice` (made from it by createTaskList). */
  calls?: CallService;
  /** WhatsApp through Twilio, or the outbox's simulator (server/main.ts makes it). */
  whatsapp?: WhatsAppService;
};

/** A task that runs only on a payload its registry schema accepts (a malformed one fails the job). */
function checked<K extends JobName>(name: K, run: JobTask<K>): Task {
  return (payload, helpers) => run(jobDefinitions[name].payload.parse(payload) as JobPayload<K>, helpers);
}

export function createTaskList(jobDeps: JobDeps): TaskList & Record<JobName, Task> {
  const deps: JobDeps = {
    ...jobDeps,
    calls: jobDeps.calls ?? (jobDeps.voice ? createCallService(jobDeps.config, jobDeps.voice) : undefined),
  };
  return {
    outbox__send: checked("outbox__send", outboxSend(deps)),
    maintenance__cleanup: checked("maintenance__cleanup", maintenanceCleanup(deps)),
    scheduler__tick: checked("scheduler__tick", schedulerTick(deps)),
    delivery__send: checked("delivery__send", deliverySend(deps)),
    delivery__send_batch: checked("delivery__send_batch", deliverySendBatch(deps)),
    answer__transcode: checked("answer__transcode", answerTranscode(deps)),
    answer__transcribe: checked("answer__transcribe", answerTranscribe(deps)),
    keepsake__export: checked("keepsake__export", keepsakeExport(deps)),
    keepsake__book: checked("keepsake__book", keepsakeBook(deps)),
    phone__recording: checked("phone__recording", phoneRecording(deps)),
    reactions__digest: checked("reactions__digest", reactionsDigest(deps)),
    whatsapp__voice_note: checked("whatsapp__voice_note", whatsappVoiceNote(deps)),
  };
}
