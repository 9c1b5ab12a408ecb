import { describe, expect, it } from "vitest";
import { TEST_SESSION_SECRET } from "../../tests/context";
import { capabilityTokenKey, cookieSecret, emailedCodeKey } from "./keys.server";

const config = { SESSION_SECRET: TEST_SESSION_SECRET };
const otherConfig = { SESSION_SECRET: "another-session-secret-that-is-long-enough-9876543210" };

const allKeys = (secret: { SESSION_SECRET: string }) => [
  cookieSecret(secret),
  emailedCodeKey(secret).toString("base64url"),
  Buffer.from(capabilityTokenKey(secret)).toString("base64url"),
];

describe("keys derived from SESSION_SECRET", () => {
  it("gives each purpose its own key, never the secret itself", () => {
    const keys = allKeys(config);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).not.toContain(TEST_SESSION_SECRET);
    expect(emailedCodeKey(config)).toHaveLength(32);
  });

  it("derives the same keys every time, and other keys from another secret", () => {
    expect(allKeys({ ...config })).toEqual(allKeys(config));
    const other = allKeys(otherConfig);
    allKeys(config).forEach((key, i) => expect(other[i]).not.toBe(key));
  });
});
