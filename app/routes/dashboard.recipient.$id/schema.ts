import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { customPromptText } from "~/utils/prompt-schema";
import { rowId, unknownIntent } from "~/utils/validation";
import { Intent } from "./intents";

export { Intent };

export const actionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.enum([Intent.delete, Intent.sendNow]), promptId: rowId() }),
    // Moves: `js` marks a fetcher's post, which wants no redirect (the page stays where it is).
    z.object({
      intent: z.enum([Intent.moveUp, Intent.moveDown, Intent.moveTop]),
      promptId: rowId(),
      js: z.literal("1").optional(),
    }),
    z.object({
      intent: z.literal(Intent.place),
      promptId: rowId(),
      beforeId: z.union([rowId(), z.literal("")]).default(""),
      js: z.literal("1").optional(),
    }),
    z.object({ intent: z.literal(Intent.edit), promptId: rowId(), text: customPromptText }),
    z.object({ intent: z.enum([Intent.pause, Intent.resume]) }),
    // `js` marks the Share button's fetcher, which wants the link back, not a page.
    z.object({ intent: z.literal(Intent.answerShare), answerId: rowId(), js: z.literal("1").optional() }),
    z.object({ intent: z.literal(Intent.answerUnshare), answerId: rowId() }),
    // Delete and re-record are confirmed with a required checkbox.
    z.object({
      intent: z.enum([Intent.answerDelete, Intent.answerRerecord]),
      answerId: rowId(),
      confirm: z.literal("on"),
    }),
  ],
  unknownIntent,
);

export type ActionInput = z.infer<typeof actionSchema>;

/** A refused edit of a queued question: its form shows the reply's errors beside the text. */
export type EditRefusal = { form: typeof Intent.edit; promptId: string; result: SubmissionResult<string[]> };
