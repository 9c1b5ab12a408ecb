import { z } from "zod";
import { customPromptText } from "~/utils/prompt-schema";

/** Every button on the Storyteller view (name="intent"); the values are what no-JS forms post. */
export const Intent = {
  // Scheduled tab, per queued prompt.
  moveUp: "move-up",
  moveDown: "move-down",
  place: "place", // drag and drop
  edit: "edit",
  delete: "delete",
  sendNow: "send-now",
  // The owner's delivery controls.
  pause: "pause",
  resume: "resume",
  // Sent tab, per answer.
  answerShare: "answer-share",
  answerUnshare: "answer-unshare",
  answerDelete: "answer-delete",
  answerRerecord: "answer-rerecord",
} as const;

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
