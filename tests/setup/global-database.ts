import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDb, createPool } from "../../db/client";
import { migrateToLatest } from "../../db/migrator";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../server/embedded-postgres";
import { loadOrCreateLocalSecrets } from "../../server/local-state";

export const TEMPLATE_DATABASE = "heirloom_test_template";

declare module "vitest" {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

type Shared = { adminUrl: Promise<string>; embedded?: EmbeddedDatabase; projects: number };
// Both vitest projects (vitest.config.ts) run this setup in the one main process: the first starts
// the database, the last to finish stops it.
const shared = globalThis as { heirloomTestDatabase?: Shared };

/**
 * One PostgreSQL for the run (TEST_DATABASE_URL, or an embedded one under .data/test) and one
 * migrated template database; each test file clones it (tests/db.ts), so files never share state.
 */
export async function setup(project: TestProject) {
  const state = (shared.heirloomTestDatabase ??= { adminUrl: startDatabase(), projects: 0 });
  state.projects += 1;
  project.provide("adminDatabaseUrl", await state.adminUrl);
}

async function startDatabase(): Promise<string> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // A run on another TEST_PG_PORT gets its own cluster, so two runs can go side by side.
    const port = Number(process.env.TEST_PG_PORT ?? 25433);
    const dataDir = path.resolve(process.env.TEST_PG_PORT ? `.data/test-${port}` : ".data/test");
    const secrets = loadOrCreateLocalSecrets(dataDir);
    const embedded = await startEmbeddedPostgres({
      dataDir,
      port,
      password: secrets.EMBEDDED_PG_PASSWORD,
      // Measured on four database-heavy files: 289–375 s with fsync, 212–226 s without.
      throwaway: true,
    });
    shared.heirloomTestDatabase!.embedded = embedded;
    adminUrl = embedded.url;
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();

  const pool = createPool(withDatabase(adminUrl, TEMPLATE_DATABASE), 2);
  const db = createDb(pool);
  await migrateToLatest(db, pool);
  await db.destroy();
  return adminUrl;
}

export async function teardown() {
  const state = shared.heirloomTestDatabase;
  if (!state || --state.projects > 0) return;
  shared.heirloomTestDatabase = undefined;
  await state.embedded?.stop();
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
