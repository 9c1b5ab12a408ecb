import type { Task } from "graphile-worker";
import { z } from "zod";
import { sendOutboxMessage } from "~/services/outbox.server";
import type { JobDeps } from "./task-list";

const payloadSchema = z.object({ messageId: z.uuid() });

/** Sends one outbox row through the configured provider, at most once (see sendOutboxMessage). */
export const outboxSend =
  (deps: JobDeps): Task =>
  async (payload, helpers) => {
    const { messageId } = payloadSchema.parse(payload);
    await sendOutboxMessage(deps, messageId, { lastAttempt: helpers.job.attempts >= helpers.job.max_attempts });
  };
