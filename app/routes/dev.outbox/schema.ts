import { z } from "zod";
import { voiceStepSchema } from "~/models/phone-call.server";
import { unknownIntent } from "~/utils/validation";
import { PhoneIntent } from "./intents";

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/);
const callSid = z.string().regex(/^CA[0-9a-f]{32}$/);

/** A reply typed under a text: the number it went to and what the Storyteller would text back. */
export const replySchema = z.object({
  from: e164,
  body: z
    .string()
    .transform((body) => body.slice(0, 160))
    .refine((body) => body.trim().length > 0),
});

/** The phone simulator's forms: a call, keys for a step, hanging up, a call-out picked up. */
export const phoneSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal(PhoneIntent.call), from: e164 }),
    z.object({
      intent: z.literal(PhoneIntent.keys),
      from: e164,
      callSid,
      step: voiceStepSchema,
      digits: z
        .string()
        .regex(/^[0-9*#]{0,12}$/)
        .default(""),
    }),
    z.object({ intent: z.literal(PhoneIntent.hangUp), from: e164, callSid }),
    // A call-out the scheduler placed (decision 027), picked up by a person or a machine.
    z.object({
      intent: z.literal(PhoneIntent.answer),
      messageId: z.uuid(),
      answeredBy: z.enum(["human", "machine_end_beep"]),
    }),
  ],
  unknownIntent,
);

/** The fields beside a spoken answer (a multipart post with the recording). */
export const recordingSchema = z.object({ from: e164, callSid, step: voiceStepSchema });
