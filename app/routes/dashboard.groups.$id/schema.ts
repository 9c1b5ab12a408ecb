import { z } from "zod";
import { groupDetailsShape } from "~/utils/group-schema";
import { rowId, unknownIntent } from "~/utils/validation";

/**
 * The group page's forms (name="intent" on their buttons). Remove, Leave, Delete and Revoke only
 * come from their confirmation (?confirm=…), which sends confirm=yes.
 */
export const Intent = {
  update: "update",
  remove: "remove",
  leave: "leave",
  delete: "delete",
  resend: "resend",
  revoke: "revoke",
} as const;

/** What ?confirm= may ask before one of the page's irreversible actions. */
export const confirmable = [Intent.remove, Intent.leave, Intent.delete, Intent.revoke] as const;
export type Confirmable = (typeof confirmable)[number];

const confirmed = { confirm: z.literal("yes", { error: "groups:errors.confirmRequired" }) };
const id = rowId();

export const groupPageSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal(Intent.update), ...groupDetailsShape }),
    z.object({ intent: z.literal(Intent.remove), memberId: id, ...confirmed }),
    z.object({ intent: z.literal(Intent.leave), ...confirmed }),
    z.object({ intent: z.literal(Intent.delete), ...confirmed }),
    z.object({ intent: z.literal(Intent.resend), invitationId: id }),
    z.object({ intent: z.literal(Intent.revoke), invitationId: id, ...confirmed }),
  ],
  unknownIntent,
);
