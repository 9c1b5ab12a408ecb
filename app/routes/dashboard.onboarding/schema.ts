import { z } from "zod";
import { promptsSchema } from "~/utils/prompt-schema";
import { requireAddressForDelivery, scheduleShape, storytellerShape } from "~/utils/storyteller-schema";
import { unknownIntent } from "~/utils/validation";
import { Intent } from "./intents";

export { Intent };

const back = z.object({ intent: z.literal(Intent.back) });

/**
 * What each step's form posts (the step is in the URL: ?step=1…3): Back, or the step's fields,
 * checked by the same schemas the forms use in the browser (storytellerSchema, promptsSchema,
 * scheduleSchema).
 */
export const stepSchemas = {
  1: z.discriminatedUnion(
    "intent",
    [back, z.object({ intent: z.literal(Intent.next), ...storytellerShape }).superRefine(requireAddressForDelivery)],
    unknownIntent,
  ),
  2: z.discriminatedUnion("intent", [back, promptsSchema.extend({ intent: z.literal(Intent.next) })], unknownIntent),
  3: z.discriminatedUnion(
    "intent",
    [back, z.object({ intent: z.literal(Intent.submit), ...scheduleShape })],
    unknownIntent,
  ),
};

export type Step = keyof typeof stepSchemas;
