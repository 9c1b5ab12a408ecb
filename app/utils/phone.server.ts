import { isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js";

/**
 * A number a provider's webhook names (From, To), if it is one in E.164 exactly as given: "+" and
 * a number of a length some country uses. Anything else is not stored or looked up.
 */
export function webhookE164(input: string | undefined): string | null {
  if (!input) return null;
  const parsed = parsePhoneNumberFromString(input);
  return parsed?.isPossible() && parsed.number === input ? input : null;
}

/** A valid number of any country in E.164 (WhatsApp reaches them all), or null; without "+", a US one. */
export function anyCountryE164(input: string): string | null {
  if (!isValidPhoneNumber(input, "US")) return null;
  return parsePhoneNumberFromString(input, "US")?.number ?? null;
}

/** A US or Canadian number in E.164 (the only places Heirloom texts), or null if it is not one. */
export function usOrCanadianE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, "US");
  if (!parsed?.isValid() || !["US", "CA"].includes(parsed.country ?? "")) return null;
  return parsed.number;
}
