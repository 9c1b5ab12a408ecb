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

/** A zone as the time-zone chooser shows it: "city, country" in the reader's language, its country, and its other names. */
export type ZoneChoice = { zone: string; label: string; country: string | null; search: string };

/** The zones whose names (either language) contain every word of `query`. */
export function searchZones(choices: ZoneChoice[], query: string): ZoneChoice[] {
  const words = query
    .toLocaleLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  return choices.filter((c) => {
    const names = `${c.label} ${c.search}`.toLocaleLowerCase();
    return words.every((word) => names.includes(word));
  });
}
