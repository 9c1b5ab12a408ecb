import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./session.server";

describe("safeRedirectPath", () => {
  it("keeps same-site paths with their query and fragment", () => {
    expect(safeRedirectPath("/dashboard/recipient/1?sent=true#x")).toBe("/dashboard/recipient/1?sent=true#x");
    expect(safeRedirectPath("/")).toBe("/");
    // Resolved as a URL on our own origin: an encoded tab is just a path segment here.
    expect(safeRedirectPath("/%09/evil.example/../")).toBe("/%09/");
  });

  it.each([
    "//evil.example",
    "https://evil.example/",
    "/\\\\evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/a\nb",
    "/a\rSet-Cookie: x=1",
    "javascript:alert(1)",
    "dashboard",
    "",
  ])("refuses %j", (value) => {
    expect(safeRedirectPath(value, "/fallback")).toBe("/fallback");
  });

  it("falls back for anything that is not a string", () => {
    expect(safeRedirectPath(undefined)).toBe("/dashboard");
    expect(safeRedirectPath(["/x"], "/home")).toBe("/home");
  });
});
