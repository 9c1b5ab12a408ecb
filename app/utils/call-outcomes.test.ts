import { describe, expect, it } from "vitest";
import en from "../../locales/en/storytellers.json";
import hi from "../../locales/hi/storytellers.json";
import { callReasonKey, unreachedCalls } from "./call-outcomes";

describe("a call nobody took, on the Sent tab", () => {
  it("has its words in English and Hindi for every reason the ledger keeps", () => {
    for (const { reason, key } of Object.values(unreachedCalls)) {
      expect(callReasonKey(reason)).toBe(key);
      expect(en.delivery.callReasons).toHaveProperty(key);
      expect(hi.delivery.callReasons).toHaveProperty(key);
      expect(hi.delivery.callReasons[key]).not.toBe(en.delivery.callReasons[key]);
    }
  });

  it("leaves a provider's own wording alone", () => {
    expect(callReasonKey("Postmark 406: inactive recipient")).toBeNull();
    expect(callReasonKey(null)).toBeNull();
  });
});
