import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as constraints from "~/utils/form-constraints";
import { groupDetailsSchema, invitationEmailsSchema, pickStorytellerSchema } from "~/utils/group-schema";
import { inviteSchema } from "~/utils/invite-schema";
import { profileSchema } from "~/utils/profile-schema";
import { promptsSchema } from "~/utils/prompt-schema";
import { scheduleSchema, storytellerSchema, storytellerWithScheduleSchema } from "~/utils/storyteller-schema";

// The browser's forms carry these constraints instead of zod (decision 027): each must be what
// conform reads from the schema the server checks the same form with.
const schemas: Record<keyof typeof constraints, Parameters<typeof getZodConstraint>[0]> = {
  profileConstraint: profileSchema,
  groupDetailsConstraint: groupDetailsSchema,
  invitationEmailsConstraint: invitationEmailsSchema,
  pickStorytellerConstraint: pickStorytellerSchema,
  storytellerConstraint: storytellerSchema,
  scheduleConstraint: scheduleSchema,
  storytellerWithScheduleConstraint: storytellerWithScheduleSchema,
  promptsConstraint: promptsSchema,
  inviteConstraint: inviteSchema,
};

describe("form constraints", () => {
  it.each(Object.keys(schemas) as (keyof typeof constraints)[])("%s is getZodConstraint of its schema", (name) => {
    expect(constraints[name]).toEqual(getZodConstraint(schemas[name]));
  });
});
