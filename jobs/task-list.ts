import type { TaskList } from "graphile-worker";
import type { Db } from "../db/client";
import type { MailService } from "~/services/mail.server";
import type { SmsService } from "~/services/sms.server";
import type { JobName } from "~/utils/jobs.server";
import { maintenanceCleanup } from "./maintenance__cleanup";
import { outboxSend } from "./outbox__send";
import { promptSendNow } from "./prompt__send_now";

/** What tasks may use: created once at boot and shared by every job. */
export type JobDeps = { db: Db; mail: MailService; sms: SmsService };

export function createTaskList(deps: JobDeps): TaskList & Record<JobName, unknown> {
  return {
    outbox__send: outboxSend(deps),
    maintenance__cleanup: maintenanceCleanup(deps),
    prompt__send_now: promptSendNow(deps),
  };
}
