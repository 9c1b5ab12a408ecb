import { z } from "zod";
import { email, text } from "~/utils/validation";

// A group's fields, as Add Group and the group page ask for them: one schema for the browser and
// the server. Messages are translation keys (common:validation.* and groups:errors.*).

/** A group's name (2–50) and description (10–60). */
export const groupDetailsShape = { name: text(2, 50), description: text(10, 60) };
export const groupDetailsSchema = z.object(groupDetailsShape);
export type GroupDetailsInput = z.infer<typeof groupDetailsSchema>;

/** The people to invite: any number of addresses (blank slots left out), each valid, none twice. */
export const invitationEmailsShape = {
  emails: z
    .array(z.preprocess((value) => (value === "" ? undefined : value), email().optional()))
    .default([])
    .superRefine((emails, ctx) => {
      const seen = new Set<string>();
      emails.forEach((address, index) => {
        if (!address) return;
        const key = address.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: "custom", path: [index], message: "groups:errors.duplicateEmail" });
        seen.add(key);
      });
    })
    .transform((emails) => emails.filter((address): address is string => Boolean(address))),
};
export const invitationEmailsSchema = z.object(invitationEmailsShape);
