import { z } from "zod";
import { email, text } from "~/utils/validation";

// Shared by the account page and /dashboard/user/{nickname}/edit, in the browser and on the server.
export const profileSchema = z.object({
  intent: z.literal("general"),
  firstName: text(1, 50),
  lastName: text(1, 50),
  nickname: text(2, 30),
  email: email(),
  language: z.enum(["en", "hi"]),
  phone: z.string().trim().max(30, "validation.tooLong").optional(),
  photo: z.instanceof(File).optional(),
});

export const preferencesSchema = z.object({
  intent: z.literal("notifications"),
  activity: z.boolean().default(false),
  application: z.boolean().default(false),
});

export const confirmEmailSchema = z.object({
  intent: z.literal("confirm-email"),
  code: z.string({ error: "auth:errors.codeFormat" }).trim().regex(/^\d{6}$/, "auth:errors.codeFormat"),
});

export const deleteAccountSchema = z.object({
  intent: z.literal("delete"),
  confirm: z.literal("on", { error: "account:delete.confirmRequired" }),
});
