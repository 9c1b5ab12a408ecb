import { z } from "zod";

// Messages are translation keys (common:validation.*), so one schema serves the browser and the
// server and the reader sees them in their own language.
// Control characters (a NUL above all, which PostgreSQL refuses in text) are never typed on purpose:
// a message on the field, not a failed insert. Tabs and line breaks are text.
const CONTROL_CHARACTER = /(?![\t\n\r])\p{Cc}/u;

const noControlCharacters = (value: string) => !CONTROL_CHARACTER.test(value);

/** An optional string field's rules: trimmed, within `max` characters, no control characters. */
export const plainText = (max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .max(max, "validation.tooLong")
    .refine(noControlCharacters, "validation.invalidCharacters");

export const text = (min: number, max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(min, min <= 1 ? "validation.required" : "validation.tooShort")
    .max(max, "validation.tooLong")
    .refine(noControlCharacters, "validation.invalidCharacters");

export const email = () =>
  z
    .string({ error: "validation.emailRequired" })
    .trim()
    .max(254, "validation.tooLong")
    .pipe(z.email("validation.emailInvalid"));
