import { z } from "zod";
import { customPromptText } from "~/utils/prompt-schema";
import { choice, rowId, serialId, unknownIntent } from "~/utils/validation";

/** Every button on My Stories (name="intent"); the values are what no-JS forms post. */
export const Intent = {
  // "Record a story": a library question, or a title of one's own.
  recordLibrary: "record-library",
  recordTitle: "record-title",
  // Per story.
  privacy: "privacy",
  delete: "delete",
} as const;

export const actionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal(Intent.recordLibrary),
      libraryPromptId: serialId("stories:record.unknownQuestion", "stories:record.chooseQuestion"),
    }),
    // 5–300 characters, as every question ("Too Short!" / "Too Long!").
    z.object({ intent: z.literal(Intent.recordTitle), title: customPromptText }),
    z.object({ intent: z.literal(Intent.privacy), answerId: rowId(), private: choice(["1", "0"]) }),
    // Confirmed with a required checkbox (the browser insists, and so does the server).
    z.object({ intent: z.literal(Intent.delete), promptId: rowId(), confirm: z.literal("on") }),
  ],
  unknownIntent,
);

/**
 * Where a story is recorded: a page of its own with the record page's recorder, served without React
 * (like the record link's), so whatever leads there loads it as a whole document (a plain link, a
 * form with reloadDocument).
 */
export const recordingPath = (promptId: string) => `/dashboard/mystories/record/${promptId}`;

export type ActionInput = z.infer<typeof actionSchema>;
