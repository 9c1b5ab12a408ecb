import { z } from "zod";
import { email } from "~/utils/validation";

// One address a post (the form has one field): a post carrying several is refused with its own
// message, not taken for a missing one. "Into one of my groups" is optional: blank invites to Heirloom only.
export const inviteSchema = z.object({
  email: z
    .unknown()
    .refine((value) => !Array.isArray(value), "groups:errors.oneAddress")
    .pipe(email()),
  groupId: z.uuid("groups:errors.groupUnknown").optional(),
});
