import { z } from "zod";
import {
  AddGroupIntent as Intent,
  groupDetailsShape,
  invitationEmailsShape,
  pickStorytellerSchema,
} from "~/utils/group-schema";
import { requireAddressForDelivery, scheduleShape, storytellerShape } from "~/utils/storyteller-schema";
import { unknownIntent } from "~/utils/validation";

export { Intent };

const back = z.object({ intent: z.literal(Intent.back) });

/** What each step's form posts (the step is in the URL: ?step=1…3), by the buttons' intents. */
export const stepSchemas = {
  1: z.discriminatedUnion(
    "intent",
    [z.object({ intent: z.literal(Intent.next), ...groupDetailsShape })],
    unknownIntent,
  ),
  2: z.discriminatedUnion(
    "intent",
    [
      back,
      pickStorytellerSchema.extend({ intent: z.literal(Intent.pick) }),
      z
        .object({ intent: z.literal(Intent.create), ...storytellerShape, ...scheduleShape })
        .superRefine(requireAddressForDelivery),
    ],
    unknownIntent,
  ),
  3: z.discriminatedUnion(
    "intent",
    [
      back,
      z.object({ intent: z.literal(Intent.more), ...invitationEmailsShape }),
      z.object({ intent: z.literal(Intent.submit), ...invitationEmailsShape }),
    ],
    unknownIntent,
  ),
};

export type Step = keyof typeof stepSchemas;
