import { type CountryCode, dialCodeOf } from "~/utils/phone.server";
import { type PhoneCountry, timeZoneNames, type ZoneChoice } from "~/utils/time-zones";
import { countryOfZone } from "~/utils/zone-countries.server";

// The time-zone chooser's list: each zone as "city, country" in the reader's language, with the
// names it is found by in both languages (Intl names the countries; the cities' Hindi names are ours,
// for the places families most often look for).

export type { ZoneChoice };

const HINDI_CITIES: Record<string, string> = {
  Adelaide: "एडिलेड",
  Amsterdam: "एम्स्टर्डम",
  Anchorage: "एंकरेज",
  Auckland: "ऑकलैंड",
  Bahrain: "बहरीन",
  Bangkok: "बैंकॉक",
  Berlin: "बर्लिन",
  Brisbane: "ब्रिस्बेन",
  Chicago: "शिकागो",
  Colombo: "कोलंबो",
  Denver: "डेनवर",
  Dhaka: "ढाका",
  Dubai: "दुबई",
  Dublin: "डबलिन",
  Edmonton: "एडमंटन",
  Fiji: "फ़िजी",
  Guyana: "गयाना",
  Halifax: "हैलिफ़ैक्स",
  "Hong Kong": "हांगकांग",
  Honolulu: "होनोलूलू",
  Jakarta: "जकार्ता",
  Johannesburg: "जोहान्सबर्ग",
  Kabul: "काबुल",
  Karachi: "कराची",
  Kathmandu: "काठमांडू",
  Kolkata: "कोलकाता",
  "Kuala Lumpur": "कुआलालंपुर",
  Kuwait: "कुवैत",
  London: "लंदन",
  "Los Angeles": "लॉस एंजिल्स",
  Madrid: "मैड्रिड",
  Mauritius: "मॉरीशस",
  Melbourne: "मेलबर्न",
  Muscat: "मस्कट",
  Nairobi: "नैरोबी",
  "New York": "न्यूयॉर्क",
  Paris: "पेरिस",
  Perth: "पर्थ",
  Phoenix: "फ़ीनिक्स",
  "Port of Spain": "पोर्ट ऑफ़ स्पेन",
  Qatar: "क़तर",
  Regina: "रेजिना",
  Riyadh: "रियाद",
  Rome: "रोम",
  Shanghai: "शंघाई",
  Singapore: "सिंगापुर",
  "St Johns": "सेंट जॉन्स",
  Sydney: "सिडनी",
  Thimphu: "थिम्फू",
  Tokyo: "टोक्यो",
  Toronto: "टोरंटो",
  Vancouver: "वैंकूवर",
  Winnipeg: "विनिपेग",
  Yangon: "यांगून",
  Zurich: "ज़्यूरिख़",
};

/** The city a zone is named after ("America/Argentina/Buenos_Aires" → "Buenos Aires"). */
export const cityOfZone = (zone: string) => zone.split("/").at(-1)!.replaceAll("_", " ");

const cityIn = (zone: string, language: string) => {
  const city = cityOfZone(zone);
  return language === "hi" ? (HINDI_CITIES[city] ?? city) : city;
};

const regionNames = new Map<string, Intl.DisplayNames>();
function countryName(country: string, language: string) {
  let names = regionNames.get(language);
  if (!names) regionNames.set(language, (names = new Intl.DisplayNames([language], { type: "region" })));
  return names.of(country) ?? country;
}

/** A zone as "city, country" in a language ("कोलकाता, भारत"); zones of no country by their city. */
export function zoneLabel(zone: string, language: string) {
  const country = countryOfZone(zone);
  const city = cityIn(zone, language);
  return country ? `${city}, ${countryName(country, language)}` : city;
}

const cache = new Map<string, ZoneChoice[]>();

/** Every zone, by its label in `language`, sorted for that language. */
export function zoneChoices(language: string): ZoneChoice[] {
  let choices = cache.get(language);
  if (choices) return choices;
  const collator = new Intl.Collator(language);
  choices = timeZoneNames()
    .map((zone) => ({
      zone,
      label: zoneLabel(zone, language),
      country: countryOfZone(zone),
      // Its name in the other language (and the zone's id), for a search in either.
      search: `${zoneLabel(zone, language === "hi" ? "en" : "hi")} ${zone}`,
    }))
    .sort((a, b) => collator.compare(a.label, b.label));
  cache.set(language, choices);
  return choices;
}

/** The countries a number may be read in, named in `language`, sorted for it. */
export function phoneCountryChoices(language: string, countries: CountryCode[]): PhoneCountry[] {
  const collator = new Intl.Collator(language);
  return countries
    .map((code) => ({ code, name: countryName(code, language), ...dialCodeOf(code) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}
