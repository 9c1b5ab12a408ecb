import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { watchLogs } from "~/services/logger.server";
import { useTestDatabase } from "../tests/db";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { createPool } from "./client";

// What an operator reads when PostgreSQL drops the app's connections: an error with its stack while
// running, nothing at error level during a shutdown (when stopping PostgreSQL ends them on purpose).
const database = useTestDatabase();

const seen: { level: string; message: string; stack?: string }[] = [];
let unwatch = () => {};
afterEach(() => {
  unwatch();
  seen.length = 0;
});

function watch() {
  unwatch = watchLogs((level, args) => {
    const [fields, message] =
      typeof args[0] === "string" ? [{}, args[0]] : [args[0] as { err?: Error }, String(args[1])];
    seen.push({ level, message, stack: (fields as { err?: Error }).err?.stack });
    return false;
  });
}

/** Ends the client's connection from the server side, as a PostgreSQL shutdown or restart does. */
async function terminate(client: pg.PoolClient) {
  const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const dropped = new Promise((resolve) => client.once("error", resolve));
  await admin.query("select pg_terminate_backend($1)", [rows[0].pid]);
  await admin.end();
  await dropped;
}

describe("the pool's connection errors", () => {
  it("are logged at error, with the stack, while the app runs (and do not crash it)", async () => {
    watch();
    allowConsoleErrors(1);
    const pool = createPool(database.url, 2);
    const client = await pool.connect();
    await terminate(client);
    client.release(true);
    await pool.end();
    const errors = seen.filter((line) => line.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toBe("client error");
    expect(errors[0].stack).toMatch(/terminating connection due to administrator command/);
  });

  it("are quiet once the pool is shutting down", async () => {
    watch();
    const pool = createPool(database.url, 2);
    const client = await pool.connect();
    const ended = pool.end(); // waits for the checked-out client, as a shutdown does
    await terminate(client);
    client.release(true);
    await ended;
    // The setup file would also fail this test on an error line.
    expect(seen.filter((line) => line.level === "error" || line.level === "fatal")).toEqual([]);
  });
});
