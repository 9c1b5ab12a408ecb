import { DateTime } from "luxon";
import type { frequencies } from "~/utils/storyteller-schema";

const SEND_HOUR = 10; // prompts go out at 10:00 local
const WINDOW_START_HOUR = 8; // sends allowed 08:00 (inclusive) ...
const WINDOW_END_HOUR = 21; // ... to 21:00 (exclusive) local

export type Frequency = (typeof frequencies)[number];
export type ScheduleRule = {
  firstPromptDate: string /* ISO date yyyy-mm-dd */;
  frequency: Frequency;
  timeZone: string; /* IANA */
};

// Calendar arithmetic runs on plain dates (midnight UTC) so DST can never shift a day; only the final
// step turns a local date into an instant in the rule's zone.
type LocalDate = DateTime;

function localNow(at: Date, timeZone: string): DateTime {
  const local = DateTime.fromJSDate(at, { zone: timeZone });
  if (!local.isValid) throw new Error(`Invalid time zone: ${timeZone}`);
  return local;
}

function localDateOf(at: Date, timeZone: string): LocalDate {
  const { year, month, day } = localNow(at, timeZone);
  return DateTime.utc(year, month, day);
}

function atLocal(date: LocalDate, hour: number, timeZone: string): Date {
  const { year, month, day } = date;
  const local = DateTime.fromObject({ year, month, day, hour }, { zone: timeZone });
  if (!local.isValid) throw new Error(`Invalid time zone: ${timeZone}`);
  return local.toJSDate();
}

function parseFirstDate(iso: string): LocalDate {
  const date = DateTime.fromISO(iso, { zone: "utc" });
  if (!date.isValid || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) throw new Error(`Invalid first prompt date: ${iso}`);
  return date;
}

/** The occurrence days of `month` (any date in it) for a monthly/bimonthly anchor day. */
function occurrenceDays(frequency: "monthly" | "bimonthly", anchor: number, month: LocalDate): number[] {
  const clamped = Math.min(anchor, month.daysInMonth!);
  if (frequency === "monthly") return [clamped];
  // d + 14 <= 28 never needs clamping; for d >= 15 the later day is clamped first, then the earlier one follows it.
  return anchor <= 14 ? [anchor, anchor + 14] : [clamped - 14, clamped];
}

/** The first occurrence date on or after `from` (which must be on/after the first date). */
function occurrenceOnOrAfter(rule: ScheduleRule, first: LocalDate, from: LocalDate): LocalDate {
  switch (rule.frequency) {
    case "daily":
      return from;
    case "weekly": {
      const days = Math.round(from.diff(first, "days").days);
      return first.plus({ days: Math.ceil(days / 7) * 7 });
    }
    case "monthly":
    case "bimonthly": {
      for (let month = from.startOf("month"); ; month = month.plus({ months: 1 })) {
        const day = occurrenceDays(rule.frequency, first.day, month).find((d) => month.set({ day: d }) >= from);
        if (day !== undefined) return month.set({ day });
      }
    }
  }
}

/** The first send time (10:00 local on an occurrence date on/after firstPromptDate) strictly after `after`. */
export function nextSendAt(rule: ScheduleRule, after: Date): Date {
  const first = parseFirstDate(rule.firstPromptDate);
  const afterDate = localDateOf(after, rule.timeZone);
  let date = occurrenceOnOrAfter(rule, first, afterDate > first ? afterDate : first);
  let sendAt = atLocal(date, SEND_HOUR, rule.timeZone);
  if (sendAt <= after) {
    date = occurrenceOnOrAfter(rule, first, date.plus({ days: 1 }));
    sendAt = atLocal(date, SEND_HOUR, rule.timeZone);
  }
  return sendAt;
}

/** 10:00 local on the first prompt date itself (always an occurrence). */
export function firstSendAt(rule: ScheduleRule): Date {
  return atLocal(parseFirstDate(rule.firstPromptDate), SEND_HOUR, rule.timeZone);
}

/** True when `at` is within 08:00–21:00 local time in timeZone. */
export function isInsideSendingWindow(at: Date, timeZone: string): boolean {
  const { hour } = localNow(at, timeZone);
  return hour >= WINDOW_START_HOUR && hour < WINDOW_END_HOUR;
}

/** The earliest moment >= `now` inside the sending window (now itself if inside; else the next 08:00 local). */
export function nextWindowOpening(now: Date, timeZone: string): Date {
  if (isInsideSendingWindow(now, timeZone)) return now;
  const today = localDateOf(now, timeZone);
  const day = localNow(now, timeZone).hour < WINDOW_START_HOUR ? today : today.plus({ days: 1 });
  return atLocal(day, WINDOW_START_HOUR, timeZone);
}

/**
 * A send planned for `plannedFor` and attempted at `now`: send now only if `now` is inside the window on the same local
 * date as plannedFor (and not before plannedFor's day); otherwise return the next 10:00 local strictly after now.
 */
export function lateSendDecision(
  plannedFor: Date,
  now: Date,
  timeZone: string,
): { send: true } | { send: false; retryAt: Date } {
  const today = localDateOf(now, timeZone);
  if (+today === +localDateOf(plannedFor, timeZone) && isInsideSendingWindow(now, timeZone)) return { send: true };
  const todayAtSendHour = atLocal(today, SEND_HOUR, timeZone);
  return {
    send: false,
    retryAt: todayAtSendHour > now ? todayAtSendHour : atLocal(today.plus({ days: 1 }), SEND_HOUR, timeZone),
  };
}
