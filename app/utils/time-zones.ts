// ICU (in Node and in browsers) still names some zones by their old IANA names; people know the
// current ones (Kolkata, not Calcutta). Both stay valid for date arithmetic.
const CURRENT_NAMES: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Europe/Kiev": "Europe/Kyiv",
  "America/Godthab": "America/Nuuk",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Pacific/Enderbury": "Pacific/Kanton",
};

export const currentZoneName = (zone: string) => CURRENT_NAMES[zone] ?? zone;

/** Every IANA time zone, by its current name, sorted. */
export function timeZoneNames(): string[] {
  return [...new Set(Intl.supportedValuesOf("timeZone").map(currentZoneName))].sort();
}

/** A country a number may be from: its code, its name in the reader's language, its calling code. */
export type PhoneCountry = { code: string; name: string; dial: string; main: boolean };

/**
 * The country a number written with "+" (or "00") and its calling code is from, or null: the one
 * chosen already when it shares the code (+1: the US and Canada), else the code's main country.
 */
export function countryOfTypedNumber(typed: string, countries: PhoneCountry[], chosen?: string): string | null {
  const digits = /^\s*(?:\+|00)\s*([\d\s().-]+)/.exec(typed)?.[1]?.replace(/\D/g, "") ?? "";
  for (const length of [1, 2, 3]) {
    const dial = digits.slice(0, length);
    const sharing = digits.length > length ? countries.filter((c) => c.dial === dial) : [];
    if (sharing.length)
      return (sharing.find((c) => c.code === chosen) ?? sharing.find((c) => c.main) ?? sharing[0]).code;
  }
  return null;
}

/** A zone as the time-zone chooser shows it: "city, country" in the reader's language, its country, and its other names. */
export type ZoneChoice = { zone: string; label: string; country: string | null; search: string };

const wordsOf = (text: string) =>
  text
    .toLocaleLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);

/**
 * The zones found by `query`, in either language: each of its words begins a word of the zone's
 * names. When some zones have every word whole ("India" is Kolkata's country), only those: a
 * country's name is no prefix search over "Indian/Maldives" and its neighbours.
 */
export function searchZones(choices: ZoneChoice[], query: string): ZoneChoice[] {
  const words = wordsOf(query);
  if (!words.length) return [];
  const begun: ZoneChoice[] = [];
  const whole: ZoneChoice[] = [];
  for (const choice of choices) {
    const names = wordsOf(`${choice.label} ${choice.search}`);
    if (!words.every((word) => names.some((name) => name.startsWith(word)))) continue;
    begun.push(choice);
    if (words.every((word) => names.includes(word))) whole.push(choice);
  }
  return whole.length ? whole : begun;
}

/**
 * The zone a search chose, when it found exactly one place (typing "India" or "भारत" chooses
 * Kolkata), or null.
 */
export function onlyMatch(choices: ZoneChoice[], query: string): string | null {
  const found = searchZones(choices, query);
  return found.length === 1 ? found[0].zone : null;
}

/** conform's intent for the time-zone search: the page again, with what was typed and the places found. */
export const zoneSearchIntent = JSON.stringify({ type: "validate", payload: { name: "zoneQuery" } });

/**
 * A plain post (no JavaScript) whose "Find a city or country" changed since the page was drawn is
 * that search, whichever button sent it: Enter in the search box presses the form's first button,
 * which is the page's own, and the new search must show its places before anything is kept.
 */
export function zoneSearchFirst(formData: FormData): FormData {
  const typed = (name: string) => String(formData.get(name) ?? "").trim();
  if (formData.has("zoneQuery") && typed("zoneQuery") !== typed("zoneQueryShown"))
    formData.set("__intent__", zoneSearchIntent);
  return formData;
}
