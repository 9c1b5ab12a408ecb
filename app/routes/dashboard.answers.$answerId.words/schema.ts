import { z } from "zod";
import { unknownIntent } from "~/utils/validation";
import { Intent } from "./intents";

export { Intent };

/**
 * Save carries the words: `segment` once per segment (in order, timings stay on the server) or
 * `text` when the answer has none; `version` is the words the form was opened on. Lengths and the
 * segment count are the model's to judge (correctWords), against the answer as it is now.
 */
export const wordsSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal(Intent.save),
      version: z.string({ error: "validation.outOfDate" }).regex(/^[0-9a-f]{32}$/, "validation.outOfDate"),
      // A hand-made post may repeat the field: its parts are the words, in order.
      // (An empty part arrives as undefined, and is an empty line.)
      text: z
        .union([z.string(), z.array(z.string().optional())])
        .optional()
        .transform((text) => (Array.isArray(text) ? text.map((part) => part ?? "").join("\n") : text)),
      segment: z.union([z.string(), z.array(z.string().optional())]).optional(),
    }),
    z.object({ intent: z.literal(Intent.useHeard) }),
    z.object({ intent: z.literal(Intent.keepOurs) }),
  ],
  unknownIntent,
);
