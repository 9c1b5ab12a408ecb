import { z } from "zod";
import { requireAddressForDelivery, scheduleShape, storytellerShape } from "~/utils/storyteller-schema";
import { unknownIntent } from "~/utils/validation";
import { Intent } from "./intents";

export { Intent };

/** Save carries the shared Storyteller form (storytellerWithScheduleSchema's fields); Delete needs its box ticked. */
export const editSchema = z.discriminatedUnion(
  "intent",
  [
    z
      .object({ intent: z.literal(Intent.update), ...storytellerShape, ...scheduleShape })
      .superRefine(requireAddressForDelivery),
    z.object({
      intent: z.literal(Intent.delete),
      confirm: z.literal("on", { error: "storytellers:edit.confirmRequired" }),
    }),
  ],
  unknownIntent,
);
