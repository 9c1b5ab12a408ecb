import { parsePhoneNumberFromString } from "libphonenumber-js";

/** A US or Canadian number in E.164 (the only places Heirloom texts), or null if it is not one. */
export function usOrCanadianE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, "US");
  if (!parsed?.isValid() || !["US", "CA"].includes(parsed.country ?? "")) return null;
  return parsed.number;
}

/** An E.164 number as people read it ("+1 555 555 0100"). */
export function displayPhoneNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
