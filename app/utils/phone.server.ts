import { parsePhoneNumberFromString } from "libphonenumber-js";

/** A US or Canadian number in E.164 (the only places Heirloom texts), or null if it is not one. */
export function usOrCanadianE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, "US");
  if (!parsed?.isValid() || !["US", "CA"].includes(parsed.country ?? "")) return null;
  return parsed.number;
}
