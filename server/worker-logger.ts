import { Logger as WorkerLogger } from "graphile-worker";
import type { Logger } from "~/services/logger.server";

/** graphile-worker's lines (and the jobs' helpers.logger) through our logger, with the task and job as fields. */
export function workerLogger(log: Logger): WorkerLogger {
  const workerLog = log.child({ module: "worker" });
  return new WorkerLogger((scope) => (level, message, meta) => {
    const fields: Record<string, unknown> = {};
    if (scope.taskIdentifier) fields.task = scope.taskIdentifier;
    if (scope.jobId) fields.jobId = scope.jobId;
    // A failed task's message repeats the stack after its first line; `err` carries it once.
    const error = (meta as { error?: unknown } | undefined)?.error;
    if (error instanceof Error) fields.err = error;
    const text = error instanceof Error ? message.split("\n")[0].replace(/:$/, "") : message;
    workerLog[level === "warning" ? "warn" : level](fields, text);
  });
}
