import { sendDeliveryBatch } from "~/models/delivery.server";
import type { JobTask } from "~/services/jobs.server";
import type { JobDeps } from "./task-list";

/** Sends one scheduler batch of prompt deliveries (see sendDeliveryBatch). */
export const deliverySendBatch =
  (deps: JobDeps): JobTask<"delivery__send_batch"> =>
  async (payload, helpers) => {
    const result = await sendDeliveryBatch(deps, payload.deliveryIds, {
      lastAttempt: helpers.job.attempts >= helpers.job.max_attempts,
      claimant: helpers.job.id,
    });
    helpers.logger.debug(`delivery batch: ${JSON.stringify(result)}`);
  };
