import { Kysely, PostgresDialect, type Transaction } from "kysely";
import pg from "pg";
import { log } from "~/services/logger.server";
import type { Database } from "./schema";

// `date` columns stay "YYYY-MM-DD": a calendar date has no time zone, and Date would invent one.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export type Db = Kysely<Database>;
/** A query target: the database or a transaction. Model functions take this so callers can compose them. */
export type DbOrTx = Kysely<Database> | Transaction<Database>;

/** Runs `work` in the caller's transaction if there is one, else in a new one. */
export function inTransaction<T>(db: DbOrTx, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  const dbLog = log.child({ module: "db" });
  // A client losing its connection (Postgres restarting) must not crash the process. Once the pool
  // is ending (shutdown), PostgreSQL terminating the last connections is expected: debug only. A
  // dropped connection is one line (pg follows the server's reason with "terminated unexpectedly").
  const reported = new WeakSet<pg.ClientBase>();
  const report = (message: string, client: pg.ClientBase, error: Error) => {
    if (reported.has(client)) return;
    reported.add(client);
    dbLog[pool.ending ? "debug" : "error"]({ err: error }, message);
  };
  pool.on("error", (error, client) => report("idle client error", client, error));
  pool.on("connect", (client) => client.on("error", (error) => report("client error", client, error)));
  return pool;
}

export function createDb(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
