import { type Logger, run, type Runner, type Task } from "graphile-worker";
import type pg from "pg";
import type { Config } from "~/config.server";
import type { AppContext } from "~/context.server";
import { requeueWaitingTranscriptions } from "~/models/transcript.server";
import { log } from "~/services/logger.server";
import { speechSetup } from "~/services/speech.server";

/** How often a process looks for a newly installed engine or model to give the waiting answers to. */
const READY_CHECK_MS = 60_000;

/**
 * Transcriptions run in a graphile-worker runner of their own with concurrency 1: one answer at a
 * time per process, whatever the other jobs do, and on every process that runs jobs (a queue_name
 * would be one at a time across ALL processes: decision 036). At start and every minute, once the
 * engine and model are here (or a cloud service is configured), the answers left waiting are queued again, oldest first.
 */
export async function startSpeechWorker(options: {
  pgPool: pg.Pool;
  db: AppContext["db"];
  config: Config;
  task: Task;
  logger?: Logger;
  pollInterval?: number;
}) {
  const runner: Runner = await run({
    pgPool: options.pgPool,
    taskList: { answer__transcribe: options.task },
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: options.pollInterval ?? 2000,
    logger: options.logger,
  });
  const requeue = async () => {
    const setup = speechSetup(options.config);
    if (!options.config.TRANSCRIBE_URL && !(setup.engine && setup.model.installed)) return 0;
    const queued = await requeueWaitingTranscriptions(options.db);
    if (queued)
      log.info({ module: "speech" }, `${queued} answers that waited for the speech engine or model are queued`);
    return queued;
  };
  const check = () =>
    requeue().catch((error: unknown) => log.error({ module: "speech", err: error }, "could not queue waiting answers"));
  await check();
  const timer = setInterval(() => void check(), READY_CHECK_MS);
  timer.unref();
  return {
    runner,
    requeue,
    stop: async () => {
      clearInterval(timer);
      await runner.stop();
    },
  };
}
