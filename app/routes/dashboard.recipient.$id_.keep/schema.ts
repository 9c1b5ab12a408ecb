import { z } from "zod";
import { BINDINGS, TRIM_NAMES } from "~/utils/print-geometry";
import { choice, isSingleLine } from "~/utils/validation";

import { Intent, MAX_TITLE } from "./intents";

export { Intent, MAX_TITLE };

const bookFields = {
  title: z
    .string({ error: "keep:book.titleTooShort" })
    .trim()
    .min(1, "keep:book.titleTooShort")
    .max(MAX_TITLE, "keep:book.titleTooLong")
    .refine(isSingleLine, "validation.singleLine"),
  paper: choice(["a4", "letter"], "keep:book.pickPaper"),
  cover: choice(["none", "storyteller", "uploaded"], "keep:book.pickCover"),
  language: choice(["en", "hi"], "keep:book.pickLanguage"),
  // The ticked answers; each has a "position-<id>" number beside it (read by the server).
  include: z
    .preprocess(
      (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
      z.array(z.uuid({ error: "keep:book.answerGone" }), { error: "keep:book.answerGone" }),
    )
    .pipe(z.array(z.uuid()).min(1, "keep:book.pickOne")),
};

export const keepSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal(Intent.book), ...bookFields }),
  // The same book as print-ready files: a trim size and a binding besides (decision 081).
  z.object({
    intent: z.literal(Intent.print),
    ...bookFields,
    trim: choice(TRIM_NAMES, "keep:book.pickTrim"),
    binding: choice(BINDINGS, "keep:book.pickBinding"),
  }),
  z.object({ intent: z.literal(Intent.revokeLink), linkId: z.uuid() }),
]);
