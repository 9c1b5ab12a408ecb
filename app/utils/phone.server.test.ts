import { describe, expect, it } from "vitest";
import { completeConfig, parseEnv } from "~/config.server";
import { phoneMethods } from "./phone-methods.server";
import { callerE164, parsePhone, usOrCanadianE164 } from "./phone.server";
import { displayLine, storytellerVoiceLine } from "./voice-lines.server";

const configWith = (env: Record<string, string>) => completeConfig(parseEnv(env), { SESSION_SECRET: "s".repeat(32) });
const twilio = {
  TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
  TWILIO_AUTH_TOKEN: "auth-token-1234567890",
  TWILIO_FROM_NUMBER: "+12025550100",
  APP_URL: "https://heirloom.example",
};
const INDIA_LINE = "+911123456789";
const US_LINE = "+12025550143";
const withLines = configWith({ ...twilio, TWILIO_VOICE_NUMBER: US_LINE, TWILIO_VOICE_NUMBERS: `IN=${INDIA_LINE}` });

describe("phone numbers of any country", () => {
  it("reads each country's numbers, written nationally for the chosen country or with +, into E.164", () => {
    expect(parsePhone("(202) 555-0123", "US")).toEqual({
      e164: "+12025550123",
      country: "US",
      national: "(202) 555-0123",
      landline: false,
    });
    expect(parsePhone("416 555 0199")).toMatchObject({ e164: "+14165550199", country: "CA" });
    expect(parsePhone("098765 43210", "IN")).toMatchObject({ e164: "+919876543210", country: "IN", landline: false });
    expect(parsePhone("+91 98765 43210", "US")).toMatchObject({ e164: "+919876543210", national: "098765 43210" });
    expect(parsePhone("0091 98765 43210")).toMatchObject({ e164: "+919876543210" });
    expect(parsePhone("07400 123456", "GB")).toMatchObject({ e164: "+447400123456", country: "GB", landline: false });
    // A London landline: a number, but never one for texts.
    expect(parsePhone("020 7946 0958", "GB")).toMatchObject({ e164: "+442079460958", landline: true });
  });

  it("refuses what is no number: too short, letters, a number no country uses, a fictional range", () => {
    for (const bad of ["", "12345", "call me", "+91 12345", "+999 1234 5678", "+44 7700 900123", "98765 43210"])
      expect(parsePhone(bad, bad === "98765 43210" ? "GB" : undefined), bad).toBeNull();
  });

  it("texts only US and Canadian numbers that are not landlines", () => {
    expect(usOrCanadianE164("(416) 555-0199")).toBe("+14165550199");
    expect(usOrCanadianE164("+91 98765 43210")).toBeNull();
    expect(usOrCanadianE164("+44 7400 123456")).toBeNull();
  });

  it("offers each number the methods that can work for it: texts US/CA, calls where a line is", () => {
    const methods = (input: string, config = withLines) => phoneMethods(parsePhone(input)!, config);
    expect(methods("+1 202 555 0123")).toEqual(["sms", "call"]);
    expect(methods("+1 416 555 0199")).toEqual(["sms", "call"]);
    expect(methods("+91 98765 43210")).toEqual(["call"]);
    expect(methods("+91 11 2345 6789")).toEqual(["call"]);
    expect(methods("+44 7400 123456")).toEqual([]);
    expect(methods("+44 20 7946 0958")).toEqual([]);
    // The old single-number setting is the US and Canadian line, and nowhere else's.
    const legacy = configWith({ ...twilio, TWILIO_VOICE_NUMBER: US_LINE });
    expect(methods("+1 416 555 0199", legacy)).toEqual(["sms", "call"]);
    expect(methods("+91 98765 43210", legacy)).toEqual([]);
  });
});

describe("TWILIO_VOICE_NUMBERS", () => {
  it("is a line per country, the single number staying the US and Canadian one", () => {
    expect(withLines.voiceLines).toEqual({ US: US_LINE, CA: US_LINE, IN: INDIA_LINE });
    expect(
      configWith({ ...twilio, TWILIO_VOICE_NUMBERS: ` in = ${INDIA_LINE} , GB=+442079460958,US=${US_LINE}` })
        .voiceLines,
    ).toEqual({ IN: INDIA_LINE, GB: "+442079460958", US: US_LINE, CA: US_LINE });
    expect(configWith(twilio).voiceLines).toEqual({});
    expect(configWith(twilio).voiceNumber).toBeNull();
  });

  it("stops the boot naming a pair that is not COUNTRY=number of that country", () => {
    expect(() => parseEnv({ TWILIO_VOICE_NUMBERS: "India=+911123456789" })).toThrow(
      /TWILIO_VOICE_NUMBERS must be COUNTRY=number pairs/,
    );
    expect(() => parseEnv({ TWILIO_VOICE_NUMBERS: `IN=${US_LINE}` })).toThrow(
      /TWILIO_VOICE_NUMBERS has \+12025550143 for IN, which is not a number of IN/,
    );
    expect(() => parseEnv({ TWILIO_VOICE_NUMBERS: `IN=${INDIA_LINE},IN=+912223456789` })).toThrow(/names IN twice/);
    expect(() => parseEnv({ TWILIO_VOICE_NUMBERS: "XX=+911123456789" })).toThrow(/TWILIO_VOICE_NUMBERS/);
  });
});

describe("a Storyteller's answer-by-phone line", () => {
  it("is her country's, by her number or else her time zone, or none: never an international call", () => {
    const line = (phone_e164: string | null, time_zone: string, config = withLines) =>
      storytellerVoiceLine(config, { phone_e164, time_zone });
    expect(line("+919876543210", "America/New_York")).toBe(INDIA_LINE);
    expect(line(null, "Asia/Kolkata")).toBe(INDIA_LINE);
    expect(line(null, "Asia/Calcutta")).toBe(INDIA_LINE);
    expect(line(null, "America/Toronto")).toBe(US_LINE);
    expect(line(null, "America/Chicago")).toBe(US_LINE);
    expect(line("+447400123456", "Europe/London")).toBeNull();
    expect(line(null, "Europe/London")).toBeNull();
    expect(line(null, "Asia/Kolkata", configWith({ ...twilio, TWILIO_VOICE_NUMBER: US_LINE }))).toBeNull();
    expect(displayLine(INDIA_LINE)).toBe("011 2345 6789");
    expect(displayLine(US_LINE)).toBe("+1 202 555 0143");
  });
});

describe("a caller's number", () => {
  it("is matched in E.164 however the carrier wrote it, national forms read in the called line's country", () => {
    expect(callerE164("+919876543210", INDIA_LINE)).toBe("+919876543210");
    expect(callerE164("+91 98765 43210", INDIA_LINE)).toBe("+919876543210");
    expect(callerE164("09876543210", INDIA_LINE)).toBe("+919876543210");
    expect(callerE164("00919876543210", US_LINE)).toBe("+919876543210");
    expect(callerE164("(202) 555-0123", US_LINE)).toBe("+12025550123");
    expect(callerE164("anonymous", US_LINE)).toBeNull();
  });
});
