import { z } from "zod";
import { customPromptText } from "~/utils/prompt-schema";
import { Intent } from "./intents";

export { Intent };

export const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum([Intent.moveUp, Intent.moveDown, Intent.delete, Intent.sendNow]), promptId: z.uuid() }),
  z.object({
    intent: z.literal(Intent.place),
    promptId: z.uuid(),
    beforeId: z.union([z.uuid(), z.literal("")]).default(""),
  }),
  z.object({ intent: z.literal(Intent.edit), promptId: z.uuid(), text: customPromptText }),
  z.object({ intent: z.enum([Intent.pause, Intent.resume]) }),
  // `js` marks the Share button's fetcher, which wants the link back, not a page.
  z.object({ intent: z.literal(Intent.answerShare), answerId: z.uuid(), js: z.literal("1").optional() }),
  z.object({ intent: z.literal(Intent.answerUnshare), answerId: z.uuid() }),
  // Delete and re-record are confirmed with a required checkbox.
  z.object({
    intent: z.enum([Intent.answerDelete, Intent.answerRerecord]),
    answerId: z.uuid(),
    confirm: z.literal("on"),
  }),
]);

export type ActionInput = z.infer<typeof actionSchema>;
