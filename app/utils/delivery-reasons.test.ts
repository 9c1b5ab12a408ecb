import { describe, expect, it } from "vitest";
import en from "../../locales/en/storytellers.json";
import hi from "../../locales/hi/storytellers.json";
import { ownReasonKey, spamComplaint, unreachedCalls } from "./delivery-reasons";

/** storytellers:delivery.<key> in one language's file. */
const words = (file: typeof en, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], file.delivery);

describe("a failed send's reason, on the Sent tab", () => {
  it("has its words in English and Hindi for every reason we write ourselves", () => {
    for (const { reason, key } of [...Object.values(unreachedCalls), spamComplaint]) {
      expect(ownReasonKey(reason)).toBe(key);
      expect(words(en, key)).toEqual(expect.any(String));
      expect(words(hi, key)).toEqual(expect.any(String));
      expect(words(hi, key)).not.toBe(words(en, key));
    }
  });

  it("leaves a provider's own wording alone", () => {
    expect(ownReasonKey("Postmark 406: inactive recipient")).toBeNull();
    expect(ownReasonKey("Bounced: The server was unable to deliver your message")).toBeNull();
    expect(ownReasonKey(null)).toBeNull();
  });
});
