import { z } from "zod";
import { voiceStepSchema } from "~/models/phone-call.server";
import { choice, plainText, unknownIntent } from "~/utils/validation";
import { PhoneIntent } from "./intents";

// Messages are translation keys (common:validation.*); hidden fields from a stale page are "out of date".
const e164 = z.string({ error: "validation.required" }).regex(/^\+[1-9]\d{6,14}$/, "validation.phoneInternational");
const callSid = z.string({ error: "validation.outOfDate" }).regex(/^CA[0-9a-f]{32}$/, "validation.outOfDate");

/** A reply typed under a text: the number it went to and what the Storyteller would text back. */
export const replySchema = z.object({
  from: e164,
  body: z
    .string({ error: "validation.required" })
    .transform((body) => body.slice(0, 160))
    .refine((body) => body.trim().length > 0, "validation.required"),
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
        .regex(/^[0-9*#]{0,20}$/, "validation.invalidCharacters")
        .default(""),
    }),
    z.object({ intent: z.literal(PhoneIntent.hangUp), from: e164, callSid }),
    // A call-out the scheduler placed (decision 027), picked up by a person or a machine.
    z.object({
      intent: z.literal(PhoneIntent.answer),
      messageId: z.uuid("validation.outOfDate"),
      answeredBy: choice(["human", "machine_end_beep"]),
    }),
  ],
  unknownIntent,
);

/** What the WhatsApp simulator sends: from her number, a text (may be empty beside a voice note), the message replied to. */
export const whatsappSchema = z.object({
  from: e164,
  body: plainText(1000).default(""),
  repliedTo: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "validation.outOfDate")
    .optional(),
});

/** The fields beside a spoken answer (a multipart post with the recording). */
export const recordingSchema = z.object({ from: e164, callSid, step: voiceStepSchema });

/** "Reply to this email": the question email's Reply-To, her address, this reply's id and her words. */
export const emailReplySchema = z.object({
  replyTo: z.string({ error: "validation.outOfDate" }).regex(/^reply\+[0-9a-z]+@[^@\s]+$/i, "validation.outOfDate"),
  from: z.email("validation.outOfDate"),
  messageId: z.uuid("validation.outOfDate"),
  text: z.string().max(20_000, "validation.tooLong").default(""),
});
