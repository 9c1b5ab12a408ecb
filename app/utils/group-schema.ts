import { z } from "zod";
import { AddGroupIntent, MAX_INVITATIONS_PER_POST } from "~/utils/group-choices";
import type { ScheduleInput, StorytellerInput } from "~/utils/storyteller-schema";
import { email, line, text } from "~/utils/validation";

// A group's fields, as Add Group and the group page ask for them: one schema, checked on
// the server. Messages are translation keys (common:validation.* and groups:errors.*).

/** A group's name (2–50) and description (10–60). */
export const groupDetailsShape = { name: line(2, 50), description: text(10, 60) };
export const groupDetailsSchema = z.object(groupDetailsShape);
export type GroupDetailsInput = z.infer<typeof groupDetailsSchema>;

export { AddGroupIntent, MAX_INVITATIONS_PER_POST };

/** More slots than a person fills one More at a time is not a form's doing. */
export const MAX_INVITATION_SLOTS = 50;

/** The people to invite: up to MAX_INVITATIONS_PER_POST addresses (blank slots left out), each valid, none twice. */
export const invitationEmailsShape = {
  emails: z
    .array(z.preprocess((value) => (value === "" ? undefined : value), email().optional()))
    .max(MAX_INVITATION_SLOTS, "validation.tooMany")
    .default([])
    .superRefine((emails, ctx) => {
      const seen = new Set<string>();
      emails.forEach((address, index) => {
        if (!address) return;
        const key = address.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: "custom", path: [index], message: "groups:errors.duplicateEmail" });
        seen.add(key);
      });
      if (emails.filter(Boolean).length > MAX_INVITATIONS_PER_POST)
        ctx.addIssue({ code: "custom", path: [], message: "groups:errors.tooManyInvitations" });
    })
    .transform((emails) => emails.filter((address): address is string => Boolean(address))),
};
export const invitationEmailsSchema = z.object(invitationEmailsShape);

/** Step 2 of Add Group, its first form: one of my Storytellers. */
export const pickStorytellerSchema = z.object({
  storytellerId: z.string({ error: "validation.required" }).pipe(z.uuid("validation.required")),
});

/** The Storyteller a new group is about: one the user owns, or a new one (onboarding's fields and a schedule). */
export type GroupStorytellerChoice = { storytellerId: string } | { newStoryteller: StorytellerInput & ScheduleInput };

/** Add Group's answers so far, one entry per finished step, kept server-side for plain form posts. */
export type GroupDraft = { details?: GroupDetailsInput; storyteller?: GroupStorytellerChoice; emails?: string[] };
