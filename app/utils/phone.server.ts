import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from "libphonenumber-js/max";
import metadata from "libphonenumber-js/metadata.min.json";

export type { CountryCode };

/** A number people gave us, checked: E.164 to store, its country, and what kind of line it is. */
export type PhoneNumber = {
  e164: string;
  country: CountryCode;
  /** As people in its country write it ("098765 43210"). */
  national: string;
  /** Only a landline is known never to take a text (US numbers are mostly "either"). */
  landline: boolean;
};

/** The countries Heirloom texts (the spec's SMS rule). */
const TEXT_COUNTRIES: readonly CountryCode[] = ["US", "CA"];

export const isCountryCode = (value: string | undefined): value is CountryCode =>
  Boolean(value && /^[A-Z]{2}$/.test(value) && isSupportedCountry(value));

/** A country's calling code ("91"), and whether it is the code's main country (the US for +1, not Canada). */
export function dialCodeOf(country: CountryCode): { dial: string; main: boolean } {
  const dial = getCountryCallingCode(country);
  return { dial, main: metadata.country_calling_codes[dial]?.[0] === country };
}

/** Every country a number may come from, as ISO 3166 codes (libphonenumber's list). */
export const phoneCountries = (): CountryCode[] => getCountries();

/**
 * A valid number of any country, written with "+" (or "00") and its country code, or nationally for
 * `country` (the one chosen beside the field), or null.
 */
export function parsePhone(input: string, country?: CountryCode): PhoneNumber | null {
  const trimmed = input.trim().replace(/^00(?=[1-9])/, "+");
  const parsed = parsePhoneNumberFromString(trimmed, country ?? "US");
  if (!parsed?.isValid() || !parsed.country) return null;
  return {
    e164: parsed.number,
    country: parsed.country,
    national: parsed.formatNational(),
    landline: parsed.getType() === "FIXED_LINE",
  };
}

/** A stored E.164 number's country (null if it is no longer a valid number). */
export function countryOfNumber(e164: string): CountryCode | null {
  const parsed = parsePhoneNumberFromString(e164);
  // A fictional +1 555 number (tests, the simulator) is North American all the same.
  return parsed?.country ?? (parsed?.countryCallingCode === "1" ? "US" : null);
}

/** A stored E.164 number as people in its country write it; the number as it is when it is not valid. */
export function nationalFormat(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.isValid() ? parsed.formatNational() : e164;
}

/** True when `e164` is a number of `country` (a NANP number serves the US and Canada alike). */
export const numberServesCountry = (e164: string, country: CountryCode) => {
  const parsed = parsePhoneNumberFromString(e164);
  return Boolean(parsed?.isValid() && parsed.countryCallingCode === getCountryCallingCode(country));
};

/**
 * A number a provider's webhook names (From, To), if it is one in E.164 exactly as given: "+" and
 * a number of a length some country uses. Anything else is not stored or looked up.
 */
export function webhookE164(input: string | undefined): string | null {
  if (!input) return null;
  const parsed = parsePhoneNumberFromString(input);
  return parsed?.isPossible() && parsed.number === input ? input : null;
}

/**
 * A caller's number as we store numbers (E.164), however the carrier wrote it ("+91 98765 43210",
 * "00919876543210", "09876543210" on the India line): national forms are read in the country of
 * the line that was called. Null when it is no number at all (a withheld caller ID).
 */
export function callerE164(from: string, calledLine: string | undefined): string | null {
  const trimmed = from.trim().replace(/^00(?=[1-9])/, "+");
  const lineCountry = calledLine ? countryOfNumber(calledLine) : null;
  const parsed = parsePhoneNumberFromString(trimmed, lineCountry ?? "US");
  return parsed?.isPossible() ? parsed.number : null;
}

/** Whether Heirloom texts this number: US and Canadian numbers that are not landlines (the spec's rule). */
export const takesTexts = (phone: PhoneNumber) => TEXT_COUNTRIES.includes(phone.country) && !phone.landline;

/** A number Heirloom texts (takesTexts), in E.164, or null if it is not one. */
export function usOrCanadianE164(input: string): string | null {
  const parsed = parsePhone(input);
  return parsed && takesTexts(parsed) ? parsed.e164 : null;
}
