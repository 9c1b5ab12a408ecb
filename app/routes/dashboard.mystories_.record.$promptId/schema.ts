import { z } from "zod";

// What the recording page's script posts besides the answer (which comes as a file form or through
// /uploads): "opened", by its value, as on the record page (app/recorder/recorder.ts carries no zod).
export const Intent = { opened: "opened" } as const;

export const recordingFormSchema = z.object({ intent: z.literal(Intent.opened) });
