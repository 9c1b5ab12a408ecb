import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./session.server";

describe("safeRedirectPath", () => {
  it("keeps same-site paths with their query and fragment", () => {
    expect(safeRedirectPath("/dashboard/recipient/1?sent=true#x")).toBe("/dashboard/recipient/1?sent=true#x");
    expect(safeRedirectPath("/")).toBe("/");
  });

  it.each([
    "//evil.example",
    "https://evil.example/",
    "/\\\\evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/%09/evil.example/../",
    "/a\nb",
    "/a\rSet-Cookie: x=1",
    "javascript:alert(1)",
    "dashboard",
    "",
  ])("refuses %j", (value) => {
    const result = safeRedirectPath(value, "/fallback");
    expect(result === "/fallback" || (result.startsWith("/") && !result.startsWith("//"))).toBe(true);
    expect(new URL(result, "https://heirloom.example").origin).toBe("https://heirloom.example");
  });

  it("falls back for anything that is not a string", () => {
    expect(safeRedirectPath(undefined)).toBe("/dashboard");
    expect(safeRedirectPath(["/x"], "/home")).toBe("/home");
  });
});
