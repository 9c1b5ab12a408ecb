import { z } from "zod";
import { unknownIntent } from "~/utils/validation";

// What the record page's small forms post (url-encoded; the answer itself comes as a file form or
// through /uploads). app/recorder/recorder.ts posts "opened" by its value: the recorder bundle
// carries no zod, so it does not import this file.

export const Intent = { sendToSomeone: "send-to-someone", opened: "opened", skip: "skip" } as const;

export const recordFormSchema = z.discriminatedUnion(
  "intent",
  [
    // The address is checked by sendAnswerToSomeone, which says what is wrong with it.
    z.object({ intent: z.literal(Intent.sendToSomeone), to: z.string().default("") }),
    z.object({ intent: z.literal(Intent.opened) }),
    z.object({ intent: z.literal(Intent.skip) }),
  ],
  unknownIntent,
);
