import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Logger, runMigrations as runWorkerMigrations } from "graphile-worker";
import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import type pg from "pg";

const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));
/** `0020_words.ts`: four digits, a name; the name without the extension is what kysely_migration records. */
const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.[cm]?[jt]s$/;

/**
 * Every migration in db/migrations, by file name. Imported from our own module (not Kysely's
 * FileMigrationProvider) so the import goes through whatever runs this file: tsx, vitest's transform.
 */
export const folderMigrations: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    for (const file of (await readdir(MIGRATIONS_FOLDER)).sort()) {
      const name = MIGRATION_FILE.exec(file)?.[1];
      if (!name || file.endsWith(".d.ts")) continue;
      if (migrations[name]) throw new Error(`db/migrations has two files for migration ${name}`);
      const migration = (await import(pathToFileURL(path.join(MIGRATIONS_FOLDER, file)).href)) as Migration;
      if (typeof migration.up !== "function") throw new Error(`db/migrations/${file} exports no up()`);
      migrations[name] = migration;
    }
    return migrations;
  },
};

const quietLogger = new Logger(() => () => {});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function migrator(db: Kysely<any>) {
  return new Migrator({ db, provider: folderMigrations });
}

/** Brings the app's tables and graphile-worker's schema up to date. Safe to run from several processes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely, whatever its tables
export async function migrateToLatest(db: Kysely<any>, pool: pg.Pool): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  await runWorkerMigrations({ pgPool: pool, logger: quietLogger });
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Whether migrateToLatest has anything of ours to apply (graphile-worker's own are checked apart). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function hasPendingMigrations(db: Kysely<any>): Promise<boolean> {
  return (await migrator(db).getMigrations()).some((migration) => !migration.executedAt);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateDown(db: Kysely<any>): Promise<string | undefined> {
  const { error, results } = await migrator(db).migrateDown();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results?.[0]?.migrationName;
}
