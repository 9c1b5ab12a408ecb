import { getZodConstraint } from "@conform-to/zod/v4";
import { groupDetailsSchema, invitationEmailsSchema, pickStorytellerSchema } from "~/utils/group-schema";
import { inviteSchema } from "~/utils/invite-schema";
import { profileSchema } from "~/utils/profile-schema";
import { promptsSchema } from "~/utils/prompt-schema";
import { scheduleSchema, storytellerSchema, storytellerWithScheduleSchema } from "~/utils/storyteller-schema";

// What each dashboard form's fields say about themselves in HTML (required, pattern, multiple), read
// from the schema the server checks the form with (decision 032). Loaders send them to the page, so
// the browser gets the constraints without zod.

/** The constraints of each shared form, made once. */
export const formConstraints = {
  profile: getZodConstraint(profileSchema),
  groupDetails: getZodConstraint(groupDetailsSchema),
  invitationEmails: getZodConstraint(invitationEmailsSchema),
  pickStoryteller: getZodConstraint(pickStorytellerSchema),
  storyteller: getZodConstraint(storytellerSchema),
  schedule: getZodConstraint(scheduleSchema),
  storytellerWithSchedule: getZodConstraint(storytellerWithScheduleSchema),
  prompts: getZodConstraint(promptsSchema),
  invite: getZodConstraint(inviteSchema),
};
