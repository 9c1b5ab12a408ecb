import { z } from "zod";
import { customPromptText } from "~/utils/prompt-schema";
import { choice, rowId, serialId, unknownIntent } from "~/utils/validation";
import { Intent, recordingPath } from "./intents";

export { Intent, recordingPath };

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

export type ActionInput = z.infer<typeof actionSchema>;
