import { z } from "zod";

// Messages are translation keys (common:validation.*), so one schema serves the browser and the
// server and the reader sees them in their own language.
// Control characters (a NUL above all, which PostgreSQL refuses in text) are never typed on purpose:
// a message on the field, not a failed insert. Tabs and line breaks are text. A lone surrogate (half
// of a character, which a JSON body can carry) is not text either: it would be stored as U+FFFD.
const CONTROL_CHARACTER = /(?![\t\n\r])\p{Cc}|\p{Cs}/u;

export const noControlCharacters = (value: string) => !CONTROL_CHARACTER.test(value);

/** An optional string field's rules: trimmed, within `max` characters, no control characters. */
export const plainText = (max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .max(max, "validation.tooLong")
    .refine(noControlCharacters, "validation.invalidCharacters");

export const text = (min: number, max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(min, min <= 1 ? "validation.required" : "validation.tooShort")
    .max(max, "validation.tooLong")
    .refine(noControlCharacters, "validation.invalidCharacters");

// A single-line value (a name, a nickname, a group's name, a book's title, a number) can reach an
// email's subject or headers and a text: no line break (CR, LF, U+2028/9), tab or other control
// character, C0 or C1. A stored header break would add a header to the next email ("Bcc: …").
const NOT_ONE_LINE = /\p{Cc}|\p{Cs}|[\u2028\u2029]/u;

export const isSingleLine = (value: string) => !NOT_ONE_LINE.test(value);

/** A required single-line field: trimmed, `min` to `max` characters, nothing `isSingleLine` refuses. */
export const line = (min: number, max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(min, min <= 1 ? "validation.required" : "validation.tooShort")
    .max(max, "validation.tooLong")
    .refine(isSingleLine, "validation.singleLine");

/** An optional single-line field's rules (`plainText`'s, on one line). */
export const plainLine = (max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .max(max, "validation.tooLong")
    .refine(isSingleLine, "validation.singleLine");

const LINE_BREAKS = new RegExp(`(?:${NOT_ONE_LINE.source})+`, "gu");

/**
 * A value on one line, for what is built into a subject, a header or a text: each run of line
 * breaks and control characters becomes one space. The second guard, behind the forms' `line`,
 * for values stored before it or from elsewhere (a provider, Google).
 */
export const oneLine = (value: string) => value.replace(LINE_BREAKS, " ");

export const email = () =>
  z
    .string({ error: "validation.emailRequired" })
    .trim()
    .max(254, "validation.tooLong")
    .pipe(z.email("validation.emailInvalid"));

/**
 * One of a fixed set of values (a select, radio buttons, a hidden field): anything else, from a
 * stale page or a hand-made post, is told on the field, not a bare 400.
 */
export const choice = <const T extends readonly [string, ...string[]]>(
  values: T,
  message = "validation.invalidChoice",
) => z.enum(values, { error: (issue) => (issue.input === undefined ? "validation.required" : message) });

/** PostgreSQL's integer (int4): a serial id past it is no row, and must not reach a query as one. */
export const INT4_MAX = 2_147_483_647;

/**
 * A serial (int4) row id as a form sends it: digits only, 1 to INT4_MAX, refused with `message`
 * otherwise (20 digits, "1e3", "-1" and "0x10" alike), or with `required` when there is none. No
 * input takes an int8 (bigserial) id; the tables' other ids are uuids (isUuid in app/utils/ids.ts).
 */
export const serialId = (message: string, required = message) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .regex(/^\d{1,10}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(1, message).max(INT4_MAX, message));

/** Whether `yyyy-mm-dd` is a day the calendar has (no 30 February, no month 13). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC reads years 0–99 as 1900–1999; the year check below refuses them.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A date as <input type="date"> sends it (yyyy-mm-dd) that exists, in years 1900–2999. How far
 * before or after today it may lie depends on what it is for (firstPromptDateProblem).
 */
export const calendarDate = () =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(1, { error: "validation.required", abort: true })
    .refine(
      (value) => isCalendarDate(value) && value >= "1900-01-01" && value <= "2999-12-31",
      "validation.dateInvalid",
    );

export { addDays } from "~/utils/calendar";

/** What a hidden field or a button's value that is not what the page sent gets: reload the page. */
const OUT_OF_DATE = "validation.outOfDate";

/**
 * A form's intents (its buttons' values) as one discriminated union: an intent no button of the page
 * sends now comes from a page open since before a change, and says so:
 * `z.discriminatedUnion("intent", [...], unknownIntent)`.
 */
export const unknownIntent = { error: OUT_OF_DATE } as const;

/** A row's id (a uuid) in a hidden field or a button's value; anything else is an out-of-date page's. */
export const rowId = () => z.string({ error: OUT_OF_DATE }).pipe(z.uuid(OUT_OF_DATE));

/** A hidden field's one value (where to go after signing in, …), if any. */
export const hiddenText = () => z.string({ error: OUT_OF_DATE }).optional();

// Control characters in what a provider sends (a webhook's fields): cleaned, not refused, since
// refusing would only make the provider retry. Tabs and line breaks stay.
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, "gu");

/** Text from a provider with control characters and lone surrogates taken out (PostgreSQL refuses NUL). */
export const withoutControlCharacters = (value: string) => value.replace(CONTROL_CHARACTERS, "");
