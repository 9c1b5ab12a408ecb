import { type CountryCode, phoneCountries } from "~/utils/phone.server";
import { currentZoneName } from "~/utils/time-zones";

// Which time zones each country has, from the runtime's own ICU data (Intl.Locale's timeZones):
// a phone number's country suggests a zone, a zone tells an email Storyteller's country.

type LocaleWithZones = Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };

let byCountry: Map<CountryCode, string[]> | null = null;
let byZone: Map<string, CountryCode> | null = null;

function tables() {
  if (byCountry && byZone) return { byCountry, byZone };
  byCountry = new Map();
  byZone = new Map();
  for (const country of phoneCountries()) {
    const locale = new Intl.Locale(`und-${country}`) as LocaleWithZones;
    const zones = (locale.getTimeZones?.() ?? locale.timeZones ?? []).map(currentZoneName);
    byCountry.set(country, zones);
    for (const zone of zones) if (!byZone.has(zone)) byZone.set(zone, country);
  }
  return { byCountry, byZone };
}

/** A country's time zones by their current names (one for India, several for the US), or none. */
export const zonesOfCountry = (country: CountryCode): string[] => tables().byCountry.get(country) ?? [];

/** The country a time zone is in, or null (UTC, Antarctica's bases…). */
export const countryOfZone = (zone: string): CountryCode | null => tables().byZone.get(currentZoneName(zone)) ?? null;
