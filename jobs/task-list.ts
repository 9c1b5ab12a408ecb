import type { TaskList } from "graphile-worker";
import type { Db } from "../db/client";
import type { Config } from "~/config.server";
import type { MailService } from "~/services/mail.server";
import type { SmsService } from "~/services/sms.server";
import type { StorageService } from "~/services/storage.server";
import type { JobName } from "~/utils/jobs.server";
import { maintenanceCleanup } from "./maintenance__cleanup";
import { outboxSend } from "./outbox__send";
import { deliverySend } from "./delivery__send";
import { schedulerTick } from "./scheduler__tick";
import { answerTranscode } from "./answer__transcode";
import { answerTranscribe } from "./answer__transcribe";

/** Jobs run at once in the server process (sends wait on providers, so a few overlap usefully). */
export const WORKER_CONCURRENCY = 4;

/** What tasks may use: created once at boot and shared by every job. */
export type JobDeps = { db: Db; config: Config; mail: MailService; sms: SmsService; storage: StorageService };

export function createTaskList(deps: JobDeps): TaskList & Record<JobName, unknown> {
  return {
    outbox__send: outboxSend(deps),
    maintenance__cleanup: maintenanceCleanup(deps),
    scheduler__tick: schedulerTick(deps),
    delivery__send: deliverySend(deps),
    answer__transcode: answerTranscode(deps),
    answer__transcribe: answerTranscribe(deps),
  };
}
