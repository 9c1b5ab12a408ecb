import { countryOfNumber, phoneCountries } from "~/utils/phone.server";
import { countryOfRequest } from "~/utils/request-country.server";
import { phoneCountryChoices, zoneChoices } from "~/utils/time-zone-choices.server";

/**
 * What the Storyteller form's loaders give it besides the fields: the zones and the countries, named
 * in the reader's language, and the country a number is read in (hers when she has one, else the
 * browser's region).
 */
export function storytellerFormLists(request: Request | null, language: string, phoneE164?: string | null) {
  return {
    timeZones: zoneChoices(language),
    phoneCountries: phoneCountryChoices(language, phoneCountries()),
    phoneCountry:
      (phoneE164 && countryOfNumber(phoneE164)) ||
      (request ? countryOfRequest(request) : language === "hi" ? "IN" : "US"),
  };
}
