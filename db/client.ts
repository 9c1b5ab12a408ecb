import { Kysely, PostgresDialect, type Transaction } from "kysely";
import pg from "pg";
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
  // An idle client losing its connection (Postgres restarting) must not crash the process.
  pool.on("error", (error) => console.error("[db] idle client error:", error.message));
  pool.on("connect", (client) => client.on("error", (error) => console.error("[db] client error:", error.message)));
  return pool;
}

export function createDb(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
