import { z } from "zod";
import { email, hiddenText, line } from "~/utils/validation";

// One schema per form, used by conform in the browser and by the action on the server.
export const loginSchema = z.object({ email: email(), redirectTo: hiddenText() });

export const registerSchema = z.object({
  firstName: line(1, 50),
  lastName: line(1, 50),
  nickname: line(2, 30),
  email: email(),
  redirectTo: hiddenText(),
});

export const verifySchema = z.object({
  code: z
    .string({ error: "auth:errors.codeFormat" })
    .trim()
    .regex(/^\d{6}$/, "auth:errors.codeFormat"),
  email: z.preprocess((value) => (value === "" ? undefined : value), email().optional()),
});
