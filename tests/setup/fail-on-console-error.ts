import { afterEach, beforeEach, vi } from "vitest";

// Tests print warnings and above; LOG_LEVEL=debug (or info) shows more while investigating.
process.env.LOG_LEVEL ??= "warn";
const { watchLogs } = await import("~/services/logger.server");

/**
 * An error log fails the test: console.error, or the logger at level error or fatal. An unexpected
 * error log is a bug. A test that expects some says so with `allowConsoleErrors(n)`, which covers both.
 */
let allowed = 0;
let unexpected: unknown[][] = [];
let unwatch: () => void = () => {};

/** Counts an error log: true when a test allowed it. */
function expected(args: unknown[]) {
  if (allowed > 0) {
    allowed -= 1;
    return true;
  }
  unexpected.push(args);
  return false;
}

beforeEach(() => {
  allowed = 0;
  unexpected = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void expected(args));
  // Error lines are held back either way: an allowed one is noise, an unexpected one is reported below.
  unwatch = watchLogs((level, args) => (level === "error" || level === "fatal" ? (expected(args), true) : false));
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  unwatch();
  if (unexpected.length) {
    const first = unexpected[0].map(show).join(" ");
    throw new Error(`an error was logged ${unexpected.length} time(s) unexpectedly; first: ${first}`);
  }
});

function show(part: unknown): string {
  if (part instanceof Error) return part.stack ?? part.message;
  const err = (part as { err?: unknown } | null)?.err;
  if (err instanceof Error) return err.stack ?? err.message;
  return typeof part === "object" && part !== null ? JSON.stringify(part) : String(part);
}

export function allowConsoleErrors(count = 1) {
  allowed += count;
}
