import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  groupDetailsConstraint,
  invitationEmailsConstraint,
  inviteConstraint,
  pickStorytellerConstraint,
  profileConstraint,
  promptsConstraint,
  scheduleConstraint,
  storytellerConstraint,
  storytellerWithScheduleConstraint,
} from "~/utils/form-constraints";
import { groupDetailsSchema, invitationEmailsSchema, pickStorytellerSchema } from "~/utils/group-schema";
import { inviteSchema } from "~/utils/invite-schema";
import { profileSchema } from "~/utils/profile-schema";
import { promptsSchema } from "~/utils/prompt-schema";
import { scheduleSchema, storytellerSchema, storytellerWithScheduleSchema } from "~/utils/storyteller-schema";

// The browser's forms carry these constraints instead of zod (decision 026): each must be what
// conform reads from the schema the server checks the same form with.
const pairs = [
  ["profile", profileConstraint, profileSchema],
  ["group details", groupDetailsConstraint, groupDetailsSchema],
  ["invitation emails", invitationEmailsConstraint, invitationEmailsSchema],
  ["pick a Storyteller", pickStorytellerConstraint, pickStorytellerSchema],
  ["Storyteller", storytellerConstraint, storytellerSchema],
  ["schedule", scheduleConstraint, scheduleSchema],
  ["Storyteller with schedule", storytellerWithScheduleConstraint, storytellerWithScheduleSchema],
  ["prompts", promptsConstraint, promptsSchema],
  ["invite", inviteConstraint, inviteSchema],
] as const;

describe("form constraints", () => {
  it.each(pairs)("the %s form's are getZodConstraint of its schema", (_name, constraint, schema) => {
    expect(constraint).toEqual(getZodConstraint(schema));
  });
});
