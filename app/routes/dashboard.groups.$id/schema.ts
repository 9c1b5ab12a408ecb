import { z } from "zod";
import { groupDetailsShape } from "~/utils/group-schema";
import { rowId, unknownIntent } from "~/utils/validation";
import { Intent, confirmable, type Confirmable } from "./intents";

export { Intent, confirmable, type Confirmable };

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
