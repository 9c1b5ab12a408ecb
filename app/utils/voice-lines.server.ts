import type { Config } from "~/config.server";
import { displayPhoneNumber } from "~/utils/phone-display";
import { countryOfNumber, type CountryCode, nationalFormat } from "~/utils/phone.server";
import { countryOfZone } from "~/utils/zone-countries.server";

// Answering by phone is a call to a number in her own country, never an international one
// (decision 043): each country has its line (TWILIO_VOICE_NUMBERS) or none.

/** The line for a country, or null when there is none there. */
export const voiceLineFor = (config: Pick<Config, "voiceLines">, country: CountryCode | null): string | null =>
  (country && config.voiceLines[country]) || null;

/** Where a Storyteller lives, as far as we know: her number's country, else her time zone's. */
export function storytellerCountry(storyteller: { phone_e164: string | null; time_zone: string }): CountryCode | null {
  return (storyteller.phone_e164 && countryOfNumber(storyteller.phone_e164)) || countryOfZone(storyteller.time_zone);
}

/** The number a Storyteller calls to answer by phone, or null when her country has no line. */
export const storytellerVoiceLine = (
  config: Pick<Config, "voiceLines">,
  storyteller: { phone_e164: string | null; time_zone: string },
) => voiceLineFor(config, storytellerCountry(storyteller));

/** A line as its callers dial it: "+1 555 555 0100" in North America, national elsewhere ("011 2345 6789"). */
export const displayLine = (e164: string) => (e164.startsWith("+1") ? displayPhoneNumber(e164) : nationalFormat(e164));
