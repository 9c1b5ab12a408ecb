import { describe, expect, it } from "vitest";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { backoffMs, codeEntryWaitMs, forgetOldWrongCodes, recordWrongCode } from "./phone-code-limits.server";

const database = useTestDatabase();
const config = () => makeTestContext(database).config;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const called = "+15555550100";

describe("wrong answer codes", () => {
  it("cost nothing three times, then 1, 2, 4 … minutes, never more than a day", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n) / MINUTE)).toEqual([0, 0, 0, 1, 2, 4, 8]);
    expect(backoffMs(14) / MINUTE).toBe(1024);
    expect(backoffMs(15)).toBe(24 * HOUR);
    expect(backoffMs(60)).toBe(24 * HOUR);
  });

  it("make a caller wait from their last one, counting a day of them, each digits once", async () => {
    const caller = "+15555550131";
    const t0 = new Date("2026-05-01T10:00:00Z");
    const wrong = (digits: string, at: Date) => recordWrongCode(database.db, config(), { caller, called, digits }, at);
    for (const digits of ["111111", "222222", "333333", "333333", "333333"]) await wrong(digits, t0);
    expect(await codeEntryWaitMs(database.db, caller, called, t0)).toBe(0);
    await wrong("444444", t0);
    expect(await codeEntryWaitMs(database.db, caller, called, new Date(t0.getTime() + 20_000))).toBe(40_000);
    expect(await codeEntryWaitMs(database.db, caller, called, new Date(t0.getTime() + MINUTE))).toBe(0);
    // Another caller is not slowed by this one.
    expect(await codeEntryWaitMs(database.db, "+15555550132", called, t0)).toBe(0);
    // A day later the old ones no longer count (and the upkeep forgets them).
    const nextDay = new Date(t0.getTime() + 25 * HOUR);
    await wrong("555555", nextDay);
    expect(await codeEntryWaitMs(database.db, caller, called, nextDay)).toBe(0);
    await forgetOldWrongCodes(database.db, nextDay);
    const left = await database.db.selectFrom("phone_code_failures").select("caller_e164").execute();
    expect(left).toHaveLength(1);
  });
});
