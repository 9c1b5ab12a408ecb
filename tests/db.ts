import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createDb, createPool, type Db } from "../db/client";
import { TEMPLATE_DATABASE, withDatabase } from "./setup/global-database";

export type TestDatabase = { db: Db; pool: pg.Pool; url: string; name: string };

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("adminDatabaseUrl") });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template (fast: a file copy inside PostgreSQL). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `heirloom_test_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`));
  const url = withDatabase(inject("adminDatabaseUrl"), name);
  const pool = createPool(url, 5);
  return { db: createDb(pool), pool, url, name };
}

export async function dropTestDatabase(database: TestDatabase) {
  await database.db.destroy();
  // Kysely only ends a pool it has used; code may have used the pool directly.
  if (!database.pool.ended) await database.pool.end();
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`));
}

/** Gives the calling test file its own database for all its tests. */
export function useTestDatabase(): TestDatabase {
  const handle = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(handle, await createTestDatabase());
  });
  afterAll(async () => {
    await dropTestDatabase(handle);
  });
  return handle;
}
