import { z } from "zod";
import { email, text } from "~/utils/validation";

// The three steps of adding a Storyteller; one schema per step, for the browser and the server.
// Cross-field rules (email for email delivery, phone for texts) are part of the step-1 schema.

const optionalText = (max: number) => z.preprocess((value) => (value === "" ? undefined : value), z.string().trim().max(max, "validation.tooLong").optional());

export const whoSchema = z
  .object({
    nickname: text(2, 30),
    firstName: text(1, 50),
    relationship: optionalText(50),
    deliveryMethod: z.enum(["email", "sms"], { error: "validation.required" }),
    email: z.preprocess((value) => (value === "" ? undefined : value), email().optional()),
    phone: optionalText(30),
    timeZone: z.string({ error: "validation.required" }).min(1, "validation.required"),
    language: z.enum(["en", "hi"]),
  })
  .superRefine((value, ctx) => {
    if (value.deliveryMethod === "email" && !value.email) ctx.addIssue({ code: "custom", path: ["email"], message: "validation.emailRequired" });
    if (value.deliveryMethod === "sms" && !value.phone) ctx.addIssue({ code: "custom", path: ["phone"], message: "storytellers:errors.phoneRequired" });
  });

export const customPromptText = z.string().trim().min(5, "validation.tooShort").max(300, "validation.tooLong");

export const promptsSchema = z.object({
  libraryPromptIds: z.array(z.coerce.number().int().positive()).default([]),
  customPrompts: z.preprocess(
    (value) => (typeof value === "string" ? value.split(/\r?\n/).map((line) => line.trim()).filter(Boolean) : value),
    z.array(customPromptText).max(100, "validation.tooLong").default([]),
  ),
});

export const frequencies = ["daily", "weekly", "bimonthly", "monthly"] as const;

export const scheduleSchema = z.object({
  firstPromptDate: z.string({ error: "validation.required" }).regex(/^\d{4}-\d{2}-\d{2}$/, "storytellers:errors.dateInvalid"),
  frequency: z.enum(frequencies, { error: "validation.required" }),
});

export type WhoStep = z.infer<typeof whoSchema>;
export type PromptsStep = z.infer<typeof promptsSchema>;
export type ScheduleStep = z.infer<typeof scheduleSchema>;
export type OnboardingDraft = { who?: WhoStep; prompts?: PromptsStep; schedule?: ScheduleStep };

/** Editing a Storyteller: the "who" fields and the schedule together. */
export const storytellerEditSchema = z.intersection(whoSchema, scheduleSchema);
