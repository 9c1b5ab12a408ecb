import { z } from "zod";
import { text } from "~/utils/validation";

// Questions for a Storyteller's queue, as onboarding step 2, the Add prompts page (and its dialog)
// and editing a queued question send them: one schema for the browser and the server.

export const customPromptText = text(5, 300);

/** Library questions ticked (by id) plus your own, one per line. */
export const promptsSchema = z.object({
  libraryPromptIds: z.array(z.coerce.number().int().positive()).default([]),
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
