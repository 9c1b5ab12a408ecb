import { describe, expect, it } from "vitest";
import { customPromptText } from "./prompt-schema";
import { FIRST_PROMPT_MAX_DAYS_AHEAD, firstPromptDateProblem } from "./storyteller-schema";
import {
  addDays,
  calendarDate,
  choice,
  INT4_MAX,
  plainText,
  serialId,
  text,
  withoutControlCharacters,
} from "./validation";

describe("text fields", () => {
  it.each(["a\u0000b", "bell\u0007", "esc\u001b[0m", "del\u007f", "c1\u0085"])(
    "refuse control characters: %j",
    (value) => {
      for (const schema of [text(1, 50), plainText(50), customPromptText]) {
        const result = schema.safeParse(`${value} long enough`);
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((issue) => issue.message)).toContain("validation.invalidCharacters");
      }
    },
  );

  it("keep tabs and line breaks, and Devanagari", () => {
    expect(text(1, 50).parse("पहली\tपंक्ति\r\nदूसरी")).toBe("पहली\tपंक्ति\r\nदूसरी");
    expect(customPromptText.parse("What was school like?\nAnd after?")).toBe("What was school like?\nAnd after?");
  });
});

describe("the shared building blocks", () => {
  const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.error?.issues.map((issue) => issue.message) ?? [];

  it("text refuses lone surrogates (half a character) as it refuses control characters", () => {
    for (const value of ["Nani\ud800", "\udfffNani"])
      expect(messages(text(1, 50).safeParse(value))).toEqual(["validation.invalidCharacters"]);
    expect(text(1, 50).parse("Nani 👩‍👧")).toBe("Nani 👩‍👧");
  });

  it("choice: a value offered, or 'required' when none, or the choice message", () => {
    const frequency = choice(["daily", "weekly"]);
    expect(frequency.parse("weekly")).toBe("weekly");
    expect(messages(frequency.safeParse("hourly"))).toEqual(["validation.invalidChoice"]);
    expect(messages(frequency.safeParse(["daily", "weekly"]))).toEqual(["validation.invalidChoice"]);
    expect(messages(frequency.safeParse(undefined))).toEqual(["validation.required"]);
  });

  it("serialId: 1 to PostgreSQL's integer maximum, digits only", () => {
    const id = serialId("bad", "none");
    expect(id.parse("1")).toBe(1);
    expect(id.parse(String(INT4_MAX))).toBe(INT4_MAX);
    for (const value of ["0", "-1", "2147483648", "99999999999999999999", "1e3", "0x10", "1.5", "NaN", " 7 8"])
      expect([value, messages(id.safeParse(value))]).toEqual([value, ["bad"]]);
    expect(messages(id.safeParse(""))).toEqual(["none"]);
    expect(messages(id.safeParse(undefined))).toEqual(["none"]);
  });

  it("calendarDate: a day the calendar has, in 1900–2999", () => {
    for (const value of ["2028-02-29", "2026-12-31", "1900-01-01"]) expect(calendarDate().parse(value)).toBe(value);
    for (const value of [
      "2027-02-29",
      "2026-02-30",
      "2026-04-31",
      "2026-13-01",
      "2026-00-10",
      "0000-01-01",
      "0099-01-01",
      "3000-01-01",
      "2026-1-1",
      "26-01-01",
      "2026-01-01T00:00",
    ])
      expect([value, messages(calendarDate().safeParse(value))]).toEqual([value, ["validation.dateInvalid"]]);
    expect(messages(calendarDate().safeParse(""))).toEqual(["validation.required"]);
  });

  it("a first prompt date: from today to a year ahead, or the one a Storyteller already has", () => {
    const today = "2026-11-23";
    expect(firstPromptDateProblem(today, today)).toBeNull();
    expect(firstPromptDateProblem(addDays(today, FIRST_PROMPT_MAX_DAYS_AHEAD), today)).toBeNull();
    expect(firstPromptDateProblem(addDays(today, FIRST_PROMPT_MAX_DAYS_AHEAD + 1), today)).toBe(
      "storytellers:errors.dateTooFar",
    );
    expect(firstPromptDateProblem("2226-11-23", today)).toBe("storytellers:errors.dateTooFar");
    expect(firstPromptDateProblem("2026-11-22", today)).toBe("storytellers:errors.dateInPast");
    expect(firstPromptDateProblem("2026-01-01", today, "2026-01-01")).toBeNull();
    expect(firstPromptDateProblem("2026-01-02", today, "2026-01-01")).toBe("storytellers:errors.dateInPast");
  });

  it("addDays crosses months, years and leap days", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("provider text loses its control characters and lone surrogates, keeps the rest", () => {
    expect(withoutControlCharacters("ST\u0000OP\ud800\r\n\tहाँ")).toBe("STOP\r\n\tहाँ");
  });
});
