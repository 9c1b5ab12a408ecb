import type { Task } from "graphile-worker";
import { z } from "zod";
import { sendDelivery } from "~/models/delivery.server";
import type { JobDeps } from "./task-list";

const payloadSchema = z.object({ deliveryId: z.uuid(), sendNow: z.boolean().optional() });

/** Sends one prompt delivery (see sendDelivery): re-checks, marks the prompt sent, calls the provider. */
export const deliverySend =
  (deps: JobDeps): Task =>
  async (payload, helpers) => {
    const { deliveryId, sendNow } = payloadSchema.parse(payload);
    await sendDelivery(deps, deliveryId, { sendNow, lastAttempt: helpers.job.attempts >= helpers.job.max_attempts });
  };
