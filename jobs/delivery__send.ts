import { sendDelivery } from "~/models/delivery.server";
import type { JobTask } from "~/services/jobs.server";
import type { JobDeps } from "./task-list";

/** Sends one prompt delivery (see sendDelivery): re-checks, marks the prompt sent, calls the provider. */
export const deliverySend =
  (deps: JobDeps): JobTask<"delivery__send"> =>
  async (payload, helpers) => {
    const { deliveryId, sendNow } = payload;
    await sendDelivery(deps, deliveryId, {
      sendNow,
      lastAttempt: helpers.job.attempts >= helpers.job.max_attempts,
      claimant: helpers.job.id,
    });
  };
