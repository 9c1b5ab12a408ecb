import type { JobTask } from "~/services/jobs.server";
import { sendOutboxMessage } from "~/services/outbox.server";
import type { JobDeps } from "./task-list";

/** Sends one outbox row through the configured provider, at most once (see sendOutboxMessage). */
export const outboxSend =
  (deps: JobDeps): JobTask<"outbox__send"> =>
  async (payload, helpers) => {
    const { messageId } = payload;
    await sendOutboxMessage(deps, messageId, {
      lastAttempt: helpers.job.attempts >= helpers.job.max_attempts,
      claimant: helpers.job.id,
    });
  };
