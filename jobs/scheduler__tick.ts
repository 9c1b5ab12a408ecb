import { runSchedulerTick } from "~/models/scheduler.server";
import type { JobTask } from "~/services/jobs.server";
import type { JobDeps } from "./task-list";

/** Every minute (jobs/crontab.ts): turns due schedules into ledger rows and send jobs. */
export const schedulerTick =
  (deps: JobDeps): JobTask<"scheduler__tick"> =>
  async (_payload, helpers) => {
    const result = await runSchedulerTick(deps);
    if (result.schedules)
      helpers.logger.info(
        `scheduler: ${result.schedules} due, ${result.deliveries} deliveries, ${result.emptyQueues} empty queues`,
      );
  };
