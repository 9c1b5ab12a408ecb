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

/**
 * The Intl locale of one of the app's languages: the same conventions on every surface, page, email,
 * book and export ("November 26, 2026" in English; decision 075). Lint refuses a locale tag or a
 * `new Intl.*Format` written anywhere but here.
 */
export const intlLocale = (language: string) => (language === "hi" ? "hi-IN" : "en-US");

const numberFormats = new Map<string, Intl.NumberFormat>();

/** `new Intl.NumberFormat` in one of the app's languages, made once per language and options. */
export function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${intlLocale(language)}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(intlLocale(language), options)));
  return format;
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** "3 hours ago" in one of the app's languages, made once per language. */
export function relativeTimeFormat(language: string): Intl.RelativeTimeFormat {
  const locale = intlLocale(language);
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" })));
  return format;
}

/**
 * "1:05": whole seconds as minutes and seconds, an answer's length or a moment in it, the same in
 * both languages. Callers round as they mean: a length to the nearest second, a moment down, a
 * countdown up.
 */
export function formatLength(seconds: number): string {
  const whole = Math.floor(Math.max(0, seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

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
  style: "medium" | "long" | "dayMonth" = "medium",
) {
  // "dayMonth": "November 28", for what happened lately (a correction to an answer's words).
  const options: Intl.DateTimeFormatOptions =
    style === "dayMonth" ? { day: "numeric", month: "long", timeZone } : { dateStyle: style, timeZone };
  return dateTimeFormat(intlLocale(language), options).format(new Date(date));
}

/** "2026-11": the month something happened in the reader's time zone, for grouping by month. */
export function monthOf(date: Date | string, timeZone: string) {
  return dateTimeFormat("en-CA", { year: "numeric", month: "2-digit", timeZone }).format(new Date(date));
}
