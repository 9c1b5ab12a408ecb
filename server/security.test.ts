import { describe, expect, it } from "vitest";
import { isSameSiteRequest } from "./security";

const request = (headers: Record<string, string>) => ({ headers, protocol: "http" });
const app = "https://heirloom.example";

describe("isSameSiteRequest", () => {
  it("trusts the browser's Sec-Fetch-Site", () => {
    expect(isSameSiteRequest(request({ "sec-fetch-site": "same-origin" }), app)).toBe(true);
    expect(isSameSiteRequest(request({ "sec-fetch-site": "cross-site" }), app)).toBe(false);
    expect(isSameSiteRequest(request({ "sec-fetch-site": "same-site" }), app)).toBe(false);
    // Sec-Fetch-Site wins over a matching Origin.
    expect(isSameSiteRequest(request({ "sec-fetch-site": "cross-site", origin: app }), app)).toBe(false);
  });

  it("falls back to Origin for older browsers", () => {
    expect(isSameSiteRequest(request({ origin: app }), app)).toBe(true);
    expect(isSameSiteRequest(request({ origin: "http://localhost:3000", host: "localhost:3000" }), app)).toBe(true);
    expect(isSameSiteRequest(request({ origin: "https://evil.example", host: "heirloom.example" }), app)).toBe(false);
    expect(isSameSiteRequest(request({ origin: "null", host: "heirloom.example" }), app)).toBe(false);
  });

  it("lets non-browser clients through (they carry no victim's cookies)", () => {
    expect(isSameSiteRequest(request({}), app)).toBe(true);
  });
});
