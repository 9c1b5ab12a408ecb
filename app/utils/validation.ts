import { z } from "zod";

// Messages are translation keys (common:validation.*), so one schema serves the browser and the
// server and the reader sees them in their own language.
export const text = (min: number, max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(min, min <= 1 ? "validation.required" : "validation.tooShort")
    .max(max, "validation.tooLong");

export const email = () =>
  z
    .string({ error: "validation.emailRequired" })
    .trim()
    .max(254, "validation.tooLong")
    .pipe(z.email("validation.emailInvalid"));
