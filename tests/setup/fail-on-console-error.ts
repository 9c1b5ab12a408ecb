import { afterEach, beforeEach, vi } from "vitest";

/**
 * console.error fails the test: an unexpected error log is a bug. A test that expects some says so
 * with `allowConsoleErrors(n)`.
 */
let allowed = 0;
let unexpected: unknown[][] = [];

beforeEach(() => {
  allowed = 0;
  unexpected = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (allowed > 0) {
      allowed -= 1;
      return;
    }
    unexpected.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (unexpected.length) {
    const first = unexpected[0].map((part) => (part instanceof Error ? part.stack : String(part))).join(" ");
    throw new Error(`console.error was called ${unexpected.length} time(s) unexpectedly; first: ${first}`);
  }
});

export function allowConsoleErrors(count = 1) {
  allowed += count;
}
