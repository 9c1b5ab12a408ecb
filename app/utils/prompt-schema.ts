import { z } from "zod";
import { MAX_QUESTIONS_AT_ONCE, QUESTION_MAX, QUESTION_MIN, questionLines } from "~/utils/question-lines";
import { serialId, text } from "~/utils/validation";

// Questions for a Storyteller's queue, as onboarding step 2, the Add prompts page (and its dialog)
// and editing a queued question send them: one schema for the browser and the server.

export const customPromptText = text(QUESTION_MIN, QUESTION_MAX);

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
    (value) => (typeof value === "string" ? questionLines(value) : value),
    z.array(customPromptText).max(MAX_QUESTIONS_AT_ONCE, "validation.tooLong").default([]),
  ),
});

export type PromptsInput = z.infer<typeof promptsSchema>;
