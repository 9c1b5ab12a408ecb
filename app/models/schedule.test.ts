import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { frequencies } from "~/utils/storyteller-schema";
import {
  firstSendAt,
  isInsideSendingWindow,
  lateSendDecision,
  nextSendAt,
  nextWindowOpening,
  type Frequency,
  type ScheduleRule,
} from "./schedule";

/** "2025-03-08T15:00" → "2025-03-08T15:00:00.000Z" (expected values are written in UTC). */
const utc = (minute: string) => `${minute}:00.000Z`;
const at = (minute: string) => new Date(utc(minute));
const local = (instant: Date, zone: string) => DateTime.fromJSDate(instant, { zone });
const dateOnly = (dt: DateTime) => DateTime.utc(dt.year, dt.month, dt.day);

const zones = Intl.supportedValuesOf("timeZone");
const ruleArb = fc.record({
  firstPromptDate: fc
    .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2035-12-31T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  frequency: fc.constantFrom(...frequencies),
  timeZone: fc.constantFrom(...zones),
});
const afterArb = fc.date({
  min: new Date("2019-06-01T00:00:00Z"),
  max: new Date("2037-01-01T00:00:00Z"),
  noInvalidDate: true,
});
const runs = { numRuns: 300 };

describe("nextSendAt properties", () => {
  it("is strictly after `after`, at exactly 10:00 local, on/after the first date; before the first send it is the first send", () => {
    fc.assert(
      fc.property(ruleArb, afterArb, (rule, after) => {
        const next = nextSendAt(rule, after);
        const l = local(next, rule.timeZone);
        expect(next.getTime()).toBeGreaterThan(after.getTime());
        expect([l.hour, l.minute, l.second, l.millisecond]).toEqual([10, 0, 0, 0]);
        expect(l.toISODate()! >= rule.firstPromptDate).toBe(true);
        const first = firstSendAt(rule);
        if (after < first) expect(next).toEqual(first);
      }),
      runs,
    );
  });

  it("iterated 60 times is strictly increasing and follows the frequency from one occurrence to the next", () => {
    fc.assert(
      fc.property(ruleArb, afterArb, (rule, after) => {
        const anchor = Number(rule.firstPromptDate.slice(8));
        const first = DateTime.fromISO(rule.firstPromptDate, { zone: "utc" });
        let previous: Date | undefined;
        let cursor = after;
        for (let i = 0; i < 60; i++) {
          const next = nextSendAt(rule, cursor);
          const l = local(next, rule.timeZone);
          const date = dateOnly(l);
          expect([l.hour, l.minute, l.second]).toEqual([10, 0, 0]);
          expect(date >= first).toBe(true);
          if (rule.frequency === "weekly") expect(date.diff(first, "days").days % 7).toBe(0);
          if (rule.frequency === "monthly") expect(l.day).toBe(Math.min(anchor, l.daysInMonth!));
          if (rule.frequency === "bimonthly") {
            const last = Math.min(anchor, l.daysInMonth!);
            expect(l.day).toBeOneOf(anchor <= 14 ? [anchor, anchor + 14] : [last - 14, last]);
          }
          if (previous) {
            expect(next.getTime()).toBeGreaterThan(previous.getTime());
            const previousDate = dateOnly(local(previous, rule.timeZone));
            const days = date.diff(previousDate, "days").days;
            if (rule.frequency === "daily") expect(days).toBe(1);
            if (rule.frequency === "weekly") expect(days).toBe(7);
            if (rule.frequency === "monthly")
              expect(date.startOf("month").diff(previousDate.startOf("month"), "months").months).toBe(1);
          }
          previous = next;
          cursor = next;
        }
      }),
      { numRuns: 200 },
    );
  });

  it("sends the right number of times in every full calendar month after the first", () => {
    fc.assert(
      fc.property(ruleArb, fc.integer({ min: 1, max: 36 }), (rule, monthOffset) => {
        const month = DateTime.fromISO(rule.firstPromptDate, { zone: rule.timeZone })
          .startOf("month")
          .plus({ months: monthOffset });
        const sends: DateTime[] = [];
        for (
          let next = nextSendAt(rule, month.minus({ milliseconds: 1 }).toJSDate());
          sends.length <= 31;
          next = nextSendAt(rule, next)
        ) {
          const l = local(next, rule.timeZone);
          if (l.month !== month.month || l.year !== month.year) break;
          sends.push(l);
        }
        const expected: Record<Frequency, number[]> = {
          daily: [month.daysInMonth!],
          weekly: [4, 5],
          bimonthly: [2],
          monthly: [1],
        };
        expect(sends.length).toBeOneOf(expected[rule.frequency]);
        if (rule.frequency === "bimonthly") expect(sends[1].day - sends[0].day).toBe(14);
      }),
      runs,
    );
  });
});

describe("nextSendAt across the 2025 and 2026 DST changes", () => {
  // Offsets: New York EST −5 / EDT −4 (changes 2025-03-09, 2025-11-02, 2026-03-08, 2026-11-01); Phoenix −7; Regina −6;
  // Honolulu −10; Kolkata +5:30; London GMT +0 / BST +1 (changes 2025-03-30, 2025-10-26, 2026-03-29, 2026-10-25).
  const chains: [string, Frequency, string, string[]][] = [
    [
      "America/New_York",
      "daily",
      "2025-03-07",
      ["2025-03-07T15:00", "2025-03-08T15:00", "2025-03-09T14:00", "2025-03-10T14:00"],
    ],
    [
      "America/New_York",
      "daily",
      "2025-10-31",
      ["2025-10-31T14:00", "2025-11-01T14:00", "2025-11-02T15:00", "2025-11-03T15:00"],
    ],
    ["America/New_York", "daily", "2026-03-07", ["2026-03-07T15:00", "2026-03-08T14:00", "2026-03-09T14:00"]],
    ["America/New_York", "daily", "2026-10-31", ["2026-10-31T14:00", "2026-11-01T15:00", "2026-11-02T15:00"]],
    ["America/New_York", "weekly", "2025-03-02", ["2025-03-02T15:00", "2025-03-09T14:00", "2025-03-16T14:00"]],
    ["America/New_York", "weekly", "2025-10-26", ["2025-10-26T14:00", "2025-11-02T15:00", "2025-11-09T15:00"]],
    [
      "America/New_York",
      "monthly",
      "2025-01-31",
      ["2025-01-31T15:00", "2025-02-28T15:00", "2025-03-31T14:00", "2025-04-30T14:00"],
    ],
    [
      "America/New_York",
      "monthly",
      "2025-10-31",
      [
        "2025-10-31T14:00",
        "2025-11-30T15:00",
        "2025-12-31T15:00",
        "2026-01-31T15:00",
        "2026-02-28T15:00",
        "2026-03-31T14:00",
      ],
    ],
    [
      "America/New_York",
      "monthly",
      "2027-12-31",
      ["2027-12-31T15:00", "2028-01-31T15:00", "2028-02-29T15:00", "2028-03-31T14:00"],
    ],
    [
      "America/New_York",
      "bimonthly",
      "2025-01-31",
      [
        "2025-01-31T15:00",
        "2025-02-14T15:00",
        "2025-02-28T15:00",
        "2025-03-17T14:00",
        "2025-03-31T14:00",
        "2025-04-16T14:00",
      ],
    ],
    ["America/New_York", "bimonthly", "2025-10-20", ["2025-10-20T14:00", "2025-11-06T15:00", "2025-11-20T15:00"]],
    ["America/New_York", "bimonthly", "2026-03-03", ["2026-03-03T15:00", "2026-03-17T14:00", "2026-04-03T14:00"]],
    ["America/New_York", "bimonthly", "2026-10-25", ["2026-10-25T14:00", "2026-11-11T15:00", "2026-11-25T15:00"]],
    ["America/Phoenix", "daily", "2025-03-08", ["2025-03-08T17:00", "2025-03-09T17:00", "2025-03-10T17:00"]],
    ["America/Phoenix", "weekly", "2025-10-26", ["2025-10-26T17:00", "2025-11-02T17:00", "2025-11-09T17:00"]],
    ["America/Phoenix", "bimonthly", "2026-02-22", ["2026-02-22T17:00", "2026-03-08T17:00", "2026-03-22T17:00"]],
    ["America/Regina", "daily", "2026-03-07", ["2026-03-07T16:00", "2026-03-08T16:00", "2026-03-09T16:00"]],
    ["America/Regina", "monthly", "2026-10-01", ["2026-10-01T16:00", "2026-11-01T16:00", "2026-12-01T16:00"]],
    ["Pacific/Honolulu", "daily", "2025-11-01", ["2025-11-01T20:00", "2025-11-02T20:00", "2025-11-03T20:00"]],
    ["Pacific/Honolulu", "weekly", "2026-03-01", ["2026-03-01T20:00", "2026-03-08T20:00", "2026-03-15T20:00"]],
    ["Asia/Kolkata", "daily", "2025-03-08", ["2025-03-08T04:30", "2025-03-09T04:30", "2025-03-10T04:30"]],
    ["Asia/Kolkata", "weekly", "2026-10-25", ["2026-10-25T04:30", "2026-11-01T04:30"]],
    ["Asia/Kolkata", "monthly", "2026-03-29", ["2026-03-29T04:30", "2026-04-29T04:30"]],
    ["Europe/London", "daily", "2025-03-29", ["2025-03-29T10:00", "2025-03-30T09:00", "2025-03-31T09:00"]],
    ["Europe/London", "daily", "2025-10-25", ["2025-10-25T09:00", "2025-10-26T10:00", "2025-10-27T10:00"]],
    ["Europe/London", "weekly", "2026-03-22", ["2026-03-22T10:00", "2026-03-29T09:00", "2026-04-05T09:00"]],
    ["Europe/London", "weekly", "2026-10-18", ["2026-10-18T09:00", "2026-10-25T10:00", "2026-11-01T10:00"]],
    ["Europe/London", "bimonthly", "2025-03-16", ["2025-03-16T10:00", "2025-04-02T09:00", "2025-04-16T09:00"]],
    ["Europe/London", "monthly", "2026-02-28", ["2026-02-28T10:00", "2026-03-28T10:00", "2026-04-28T09:00"]],
  ];

  it.each(chains)("%s %s from %s", (timeZone, frequency, firstPromptDate, expected) => {
    const rule = { timeZone, frequency, firstPromptDate };
    expect(firstSendAt(rule).toISOString()).toBe(utc(expected[0]));
    for (let i = 1; i < expected.length; i++) {
      expect(nextSendAt(rule, at(expected[i - 1])).toISOString()).toBe(utc(expected[i]));
      expect(nextSendAt(rule, new Date(at(expected[i]).getTime() - 1)).toISOString()).toBe(utc(expected[i]));
    }
  });

  const points: [ScheduleRule, string, string][] = [
    // Inside New York's skipped hour (07:30Z = 03:30 EDT) and both copies of the repeated 01:30.
    [
      { timeZone: "America/New_York", frequency: "daily", firstPromptDate: "2025-03-01" },
      "2025-03-09T07:30",
      "2025-03-09T14:00",
    ],
    [
      { timeZone: "America/New_York", frequency: "daily", firstPromptDate: "2025-10-01" },
      "2025-11-02T05:30",
      "2025-11-02T15:00",
    ],
    [
      { timeZone: "America/New_York", frequency: "daily", firstPromptDate: "2025-10-01" },
      "2025-11-02T06:30",
      "2025-11-02T15:00",
    ],
    // Far from the first date.
    [
      { timeZone: "America/New_York", frequency: "weekly", firstPromptDate: "2025-01-01" },
      "2026-11-01T12:00",
      "2026-11-04T15:00",
    ],
    [
      { timeZone: "America/New_York", frequency: "monthly", firstPromptDate: "2020-01-31" },
      "2035-02-15T00:00",
      "2035-02-28T15:00",
    ],
    [
      { timeZone: "America/New_York", frequency: "daily", firstPromptDate: "2020-01-01" },
      "2035-06-15T23:00",
      "2035-06-16T14:00",
    ],
    [
      { timeZone: "America/New_York", frequency: "bimonthly", firstPromptDate: "2030-05-20" },
      "2020-01-01T00:00",
      "2030-05-20T14:00",
    ],
    // The local date, not the UTC date, decides the day.
    [
      { timeZone: "Asia/Kolkata", frequency: "daily", firstPromptDate: "2025-03-01" },
      "2025-03-08T19:00",
      "2025-03-09T04:30",
    ],
    [
      { timeZone: "Pacific/Honolulu", frequency: "daily", firstPromptDate: "2025-03-01" },
      "2025-03-09T09:00",
      "2025-03-09T20:00",
    ],
  ];

  it.each(points)("%j after %s → %s", (rule, after, expected) => {
    expect(nextSendAt(rule, at(after)).toISOString()).toBe(utc(expected));
  });
});

describe("sending window and late sends", () => {
  const ny = "America/New_York"; // June 2025: EDT, UTC−4
  const kolkata = "Asia/Kolkata"; // UTC+5:30

  it("is open from 08:00 (inclusive) to 21:00 (exclusive) local", () => {
    expect(isInsideSendingWindow(at("2025-06-10T11:59"), ny)).toBe(false); // 07:59
    expect(isInsideSendingWindow(at("2025-06-10T12:00"), ny)).toBe(true); // 08:00
    expect(isInsideSendingWindow(at("2025-06-11T00:59"), ny)).toBe(true); // 20:59
    expect(isInsideSendingWindow(at("2025-06-11T01:00"), ny)).toBe(false); // 21:00
    expect(isInsideSendingWindow(at("2025-06-10T02:29"), kolkata)).toBe(false); // 07:59
    expect(isInsideSendingWindow(at("2025-06-10T02:30"), kolkata)).toBe(true); // 08:00
    expect(isInsideSendingWindow(at("2025-06-10T15:29"), kolkata)).toBe(true); // 20:59
    expect(isInsideSendingWindow(at("2025-06-10T15:30"), kolkata)).toBe(false); // 21:00
  });

  it("opens next at now when inside, else at the next 08:00 local", () => {
    expect(nextWindowOpening(at("2025-06-10T16:00"), ny).toISOString()).toBe(utc("2025-06-10T16:00")); // 12:00
    expect(nextWindowOpening(at("2025-06-10T11:59"), ny).toISOString()).toBe(utc("2025-06-10T12:00")); // 07:59 → 08:00 today
    expect(nextWindowOpening(at("2025-06-11T01:00"), ny).toISOString()).toBe(utc("2025-06-11T12:00")); // 21:00 → 08:00 tomorrow
    expect(nextWindowOpening(at("2025-06-10T16:00"), kolkata).toISOString()).toBe(utc("2025-06-11T02:30")); // 21:30 → 08:00 tomorrow
    expect(nextWindowOpening(at("2025-03-09T06:30"), ny).toISOString()).toBe(utc("2025-03-09T12:00")); // 01:30 EST → 08:00 EDT
  });

  it("sends late only inside the window on the planned local day, else retries at the next 10:00 local", () => {
    const planned = at("2025-06-10T14:00"); // 10:00 EDT
    expect(lateSendDecision(planned, at("2025-06-10T19:00"), ny)).toEqual({ send: true }); // 15:00 same day
    expect(lateSendDecision(planned, at("2025-06-11T00:30"), ny)).toEqual({ send: true }); // 20:30 same local day, next UTC day
    expect(lateSendDecision(planned, at("2025-06-11T01:30"), ny)).toEqual({
      send: false,
      retryAt: at("2025-06-11T14:00"),
    }); // 21:30
    expect(lateSendDecision(planned, at("2025-06-11T13:00"), ny)).toEqual({
      send: false,
      retryAt: at("2025-06-11T14:00"),
    }); // 09:00 next day
    expect(lateSendDecision(planned, at("2025-06-11T19:00"), ny)).toEqual({
      send: false,
      retryAt: at("2025-06-12T14:00"),
    }); // 15:00 next day
    expect(lateSendDecision(planned, at("2025-06-11T14:00"), ny)).toEqual({
      send: false,
      retryAt: at("2025-06-12T14:00"),
    }); // 10:00 next day: strictly after
    // Missed on the Saturday evening before clocks go forward: retry at 10:00 EDT.
    expect(lateSendDecision(at("2025-03-08T15:00"), at("2025-03-09T02:30"), ny)).toEqual({
      send: false,
      retryAt: at("2025-03-09T14:00"),
    });
  });

  it("uses the half-hour offset in Kolkata", () => {
    const planned = at("2025-06-10T04:30"); // 10:00 IST
    expect(lateSendDecision(planned, at("2025-06-10T15:29"), kolkata)).toEqual({ send: true }); // 20:59
    expect(lateSendDecision(planned, at("2025-06-10T15:30"), kolkata)).toEqual({
      send: false,
      retryAt: at("2025-06-11T04:30"),
    }); // 21:00
    expect(lateSendDecision(planned, at("2025-06-09T18:30"), kolkata)).toEqual({
      send: false,
      retryAt: at("2025-06-10T04:30"),
    }); // 00:00 same local day
  });
});
