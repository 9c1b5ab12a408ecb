import { z } from "zod";
import { serialId, text } from "~/utils/validation";

// Questions for a Storyteller's queue, as onboarding step 2, the Add prompts page (and its dialog)
// and editing a queued question send them: one schema for the browser and the server.

export const customPromptText = text(5, 300);

/** A library question's id as its box or radio button posts it (an int4 serial; checked to exist by the server). */
export const libraryPromptId = serialId("storytellers:errors.libraryPromptUnknown");

/** More boxes than the library has (a few hundred) is not a form's doing. */
export const MAX_LIBRARY_PICKS = 500;

/** Library questions ticked (by id) plus your own, one per line. */
export const promptsSchema = z.object({
  libraryPromptIds: z
    .array(libraryPromptId)
    .max(MAX_LIBRARY_PICKS, "validation.tooMany")
    .default([])
    .transform((ids) => [...new Set(ids)]),
  customPrompts: z.preprocess(
    (value) =>
      typeof value === "string"
        ? value
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter(Boolean)
        : value,
    z.array(customPromptText).max(100, "validation.tooLong").default([]),
  ),
});

export type PromptsInput = z.infer<typeof promptsSchema>;
