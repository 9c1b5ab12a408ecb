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
