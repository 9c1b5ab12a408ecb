import { type CountryCode, phoneCountries } from "~/utils/phone.server";
import { currentZoneName } from "~/utils/time-zones";

// The country each time zone is in, from the runtime's own ICU data (Intl.Locale's timeZones): the
// time-zone chooser names each zone's country and narrows its list to a phone number's country.

type LocaleWithZones = Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };

let byZone: Map<string, CountryCode> | null = null;

function zoneTable() {
  if (byZone) return byZone;
  byZone = new Map();
  for (const country of phoneCountries()) {
    const locale = new Intl.Locale(`und-${country}`) as LocaleWithZones;
    const zones = (locale.getTimeZones?.() ?? locale.timeZones ?? []).map(currentZoneName);
    for (const zone of zones) if (!byZone.has(zone)) byZone.set(zone, country);
  }
  return byZone;
}

/** The country a time zone is in, or null (UTC, Antarctica's bases…). */
export const countryOfZone = (zone: string): CountryCode | null => zoneTable().get(currentZoneName(zone)) ?? null;
