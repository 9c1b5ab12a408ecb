import { describe, expect, it } from "vitest";
import { isSameSiteRequest, isTokenOnly } from "./security";

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

describe("isTokenOnly", () => {
  const post = (path: string, headers: Record<string, string> = {}) => ({ path, method: "POST", headers });
  const metadata = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
      .join(",");

  it("knows the record page and an upload's own address carry their credential", () => {
    expect(isTokenOnly(post("/record/eyJ.a.b"))).toBe(true);
    expect(isTokenOnly({ ...post("/uploads/0b7c"), method: "PATCH" })).toBe(true);
    expect(isTokenOnly(post("/record/eyJ.a.b/audio"))).toBe(false);
    expect(isTokenOnly(post("/dashboard/notifications"))).toBe(false);
    expect(isTokenOnly(post("/invitations/eyJ.a.b"))).toBe(false); // accepting needs the session
  });

  it("takes a new upload as a record link's only when its metadata holds a token", () => {
    expect(isTokenOnly(post("/uploads", { "upload-metadata": metadata({ token: "eyJ.a.b" }) }))).toBe(true);
    // My Stories: a prompt and the session cookie.
    expect(isTokenOnly(post("/uploads", { "upload-metadata": metadata({ prompt: "p1" }) }))).toBe(false);
    expect(isTokenOnly(post("/uploads", { "upload-metadata": metadata({ token: "", prompt: "p1" }) }))).toBe(false);
    expect(isTokenOnly(post("/uploads", { "upload-metadata": "token" }))).toBe(false);
    // tus refuses a repeated key; so does this check.
    const twice = `${metadata({ token: "eyJ.a.b" })},${metadata({ token: "" })}`;
    expect(isTokenOnly(post("/uploads", { "upload-metadata": twice }))).toBe(false);
    expect(isTokenOnly(post("/uploads"))).toBe(false);
  });
});
