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

/** A moment as a clock shows it where she lives ("08:00"), in the reader's language. */
export const herTime = (at: Date | string, timeZone: string, language: string) =>
  dateTimeFormat(language === "hi" ? "hi-IN" : "en-US", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(new Date(at));
