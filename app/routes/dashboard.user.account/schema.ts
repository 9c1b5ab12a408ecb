import { z } from "zod";
import { profileSchema } from "~/utils/profile-schema";
import { unknownIntent } from "~/utils/validation";
import { Intent } from "./intents";

export { Intent };

// The account page's forms, checked on the server. General settings are a shared
// component (also on /dashboard/user/{nickname}/edit), so their schema is in app/utils.

const confirmEmailSchema = z.object({
  intent: z.literal(Intent.confirmEmail),
  code: z
    .string({ error: "auth:errors.codeFormat" })
    .trim()
    .regex(/^\d{6}$/, "auth:errors.codeFormat"),
});

const preferencesSchema = z.object({
  intent: z.literal(Intent.notifications),
  // A ticked box posts "on" (conform reads it as true); anything else is no box of this page.
  activity: z.boolean({ error: "validation.invalidChoice" }).default(false),
  application: z.boolean({ error: "validation.invalidChoice" }).default(false),
});

// Whether it names a zone is the model's check (setTimeZone).
const timeZoneSchema = z.object({
  intent: z.literal(Intent.timeZone),
  timeZone: z.string({ error: "account:timeZone.invalid" }).trim().max(64, "account:timeZone.invalid"),
});

const deleteAccountSchema = z.object({
  intent: z.literal(Intent.delete),
  confirm: z.literal("on", { error: "account:delete.confirmRequired" }),
});

/** Everything the action takes, parsed once; an unknown intent fails on `intent`. */
export const accountSchema = z.discriminatedUnion(
  "intent",
  [profileSchema, confirmEmailSchema, preferencesSchema, timeZoneSchema, deleteAccountSchema],
  unknownIntent,
);
export type AccountInput = z.infer<typeof accountSchema>;
