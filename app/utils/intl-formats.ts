// Intl's formatters are costly to build (locale data is looked up each time) and cheap to use: a
// page that built one per row or per translated count spent more on building than on formatting.
// One per language and options, kept for the process (two languages, a few styles, the zones the
// Storytellers live in). The board's component imports it too: only its chunk, no shared one.

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** `new Intl.DateTimeFormat(locale, options)`, made once per locale and options. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** The Intl locale of one of the app's languages: the same conventions on every surface. */
export const intlLocale = (language: string) => (language === "hi" ? "hi-IN" : "en-US");

/** A moment as a clock shows it where she lives ("08:00"), in the reader's language. */
export const herTime = (at: Date | string, timeZone: string, language: string) =>
  dateTimeFormat(intlLocale(language), {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(new Date(at));
/**
 * The zone a signed-in family member reads dates in (decision 069): their account's, which their
 * browser reports on their first visit and Settings changes; UTC until then.
 */
export const readerTimeZone = (user: { time_zone: string | null }) => user.time_zone ?? "UTC";

/**
 * The day something happened as its reader sees it ("Nov 28, 2026"; "long": "November 28, 2026"),
 * in their time zone: the book, the export, the Timeline, the Sent tab and search say the same day.
 */
export function formatDay(
  language: string,
  date: Date | string,
  timeZone: string,
  style: "medium" | "long" = "medium",
) {
  return dateTimeFormat(intlLocale(language), { dateStyle: style, timeZone }).format(new Date(date));
}

/** "2026-11": the month something happened in the reader's time zone, for grouping by month. */
export function monthOf(date: Date | string, timeZone: string) {
  return dateTimeFormat("en-CA", { year: "numeric", month: "2-digit", timeZone }).format(new Date(date));
}
