import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import type { Db } from "../db/client";
import type { Database } from "../db/schema";
import type { TestDatabase } from "./db";

export type Statement = { sql: string; parameters: readonly unknown[] };

/**
 * A `db` that records every statement it sends to PostgreSQL (transactions' BEGIN and COMMIT
 * included), for tests that hold a loader to a fixed number of queries whatever the data: give it
 * as the context's `db`, run the loader, read `statements`. It shares the test database's pool, so
 * it needs no closing (never `destroy()` it: that would end the pool).
 */
export function countingDb(database: TestDatabase) {
  const statements: Statement[] = [];
  const record = (text: unknown, parameters: unknown) => {
    const sql = typeof text === "string" ? text : ((text as { text?: string } | null)?.text ?? String(text));
    statements.push({ sql, parameters: Array.isArray(parameters) ? parameters : [] });
  };
  const watch = (client: PostgresPoolClient): PostgresPoolClient =>
    new Proxy(client, {
      get(target, property, receiver) {
        if (property === "query")
          return (text: unknown, parameters: unknown, ...rest: unknown[]) => {
            record(text, parameters);
            return (target.query as (...args: unknown[]) => unknown).call(target, text, parameters, ...rest);
          };
        const value = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const pool: PostgresPool = {
    connect: async () => watch(await (database.pool as unknown as PostgresPool).connect()),
    // The test database's own teardown ends the real pool.
    end: async () => {},
  };
  const db: Db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    statements,
    /** How many statements `run` sent. */
    async count(run: () => Promise<unknown>) {
      const before = statements.length;
      await run();
      return statements.length - before;
    },
  };
}

/**
 * PostgreSQL's plan for a recorded statement (EXPLAIN, not run), as text lines: for tests that
 * check a query reads through an index, not the whole table.
 */
export async function explain(database: TestDatabase, statement: Statement) {
  const result = await database.pool.query<{ "QUERY PLAN": string }>(
    `EXPLAIN ${statement.sql}`,
    statement.parameters as unknown[],
  );
  return result.rows.map((row) => row["QUERY PLAN"]);
}
