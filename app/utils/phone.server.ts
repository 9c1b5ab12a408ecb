import { parsePhoneNumberFromString } from "libphonenumber-js";

/**
 * A number a provider's webhook names (From, To), if it is one in E.164 exactly as given: "+" and
 * a number of a length some country uses. Anything else is not stored or looked up.
 */
export function webhookE164(input: string | undefined): string | null {
  if (!input) return null;
  const parsed = parsePhoneNumberFromString(input);
  return parsed?.isPossible() && parsed.number === input ? input : null;
}

/** A US or Canadian number in E.164 (the only places Heirloom texts), or null if it is not one. */
export function usOrCanadianE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, "US");
  if (!parsed?.isValid() || !["US", "CA"].includes(parsed.country ?? "")) return null;
  return parsed.number;
}
