import { z } from "zod";
import { customPromptText } from "~/utils/prompt-schema";
import { Intent, recordingPath } from "./intents";

export { Intent, recordingPath };

export const actionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal(Intent.recordLibrary),
    libraryPromptId: z.coerce
      .number({ error: "stories:record.chooseQuestion" })
      .int("stories:record.chooseQuestion")
      .positive("stories:record.chooseQuestion"),
  }),
  // 5–300 characters, as every question ("Too Short!" / "Too Long!").
  z.object({ intent: z.literal(Intent.recordTitle), title: customPromptText }),
  z.object({ intent: z.literal(Intent.privacy), answerId: z.uuid(), private: z.enum(["1", "0"]) }),
  // Confirmed with a required checkbox (the browser insists, and so does the server).
  z.object({ intent: z.literal(Intent.delete), promptId: z.uuid(), confirm: z.literal("on") }),
]);

export type ActionInput = z.infer<typeof actionSchema>;
