import { z } from "zod";
import { groupDetailsShape, invitationEmailsShape } from "~/utils/group-schema";
import { requireAddressForDelivery, scheduleShape, storytellerShape } from "~/utils/storyteller-schema";

/**
 * Add Group's buttons (name="intent"). Back never needs the step to be valid. On step 2, Pick takes
 * one of my Storytellers and Create a new one; on step 3, More keeps the addresses and adds a blank
 * one, Submit creates the group.
 */
export const Intent = {
  back: "back",
  next: "next",
  pick: "pick",
  create: "create",
  more: "more",
  submit: "submit",
} as const;

const back = z.object({ intent: z.literal(Intent.back) });

/** Step 2's first form: one of my Storytellers. */
export const pickSchema = z.object({
  storytellerId: z.string({ error: "validation.required" }).pipe(z.uuid("validation.required")),
});
/** Step 2's second form: a new Storyteller, with onboarding's fields and a schedule. */
export const createSchema = z.object({ ...storytellerShape, ...scheduleShape }).superRefine(requireAddressForDelivery);

/** What each step's form posts (the step is in the URL: ?step=1…3). */
export const stepSchemas = {
  1: z.discriminatedUnion("intent", [z.object({ intent: z.literal(Intent.next), ...groupDetailsShape })]),
  2: z.discriminatedUnion("intent", [
    back,
    pickSchema.extend({ intent: z.literal(Intent.pick) }),
    z
      .object({ intent: z.literal(Intent.create), ...storytellerShape, ...scheduleShape })
      .superRefine(requireAddressForDelivery),
  ]),
  3: z.discriminatedUnion("intent", [
    back,
    z.object({ intent: z.literal(Intent.more), ...invitationEmailsShape }),
    z.object({ intent: z.literal(Intent.submit), ...invitationEmailsShape }),
  ]),
};

export type Step = keyof typeof stepSchemas;
