import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { sql } from "kysely";
import pg from "pg";
import { expect, inject, it } from "vitest";
import { allowConsoleErrors } from "../tests/setup/fail-on-console-error";
import { withDatabase } from "../tests/setup/global-database";
import { createDb, createPool } from "./client";
import { folderMigrations, migrateDown, migrateToLatest } from "./migrator";

it("finds every file in db/migrations, in order, each with up and down", async () => {
  const files = readdirSync(new URL("./migrations", import.meta.url)).sort();
  const migrations = await folderMigrations.getMigrations();
  // A file the name pattern misses (0020-words.ts) would be left out here, not silently skipped.
  expect(Object.keys(migrations).map((name) => `${name}.ts`)).toEqual(files);
  expect(Object.keys(migrations)).toContain("0019_transcript_words");
  for (const migration of Object.values(migrations)) expect(typeof migration.down).toBe("function");
});

it("migrates an empty database up, all the way down, and up again", async () => {
  const name = `heirloom_migrate_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: inject("adminDatabaseUrl") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const pool = createPool(withDatabase(inject("adminDatabaseUrl"), name), 2);
  const db = createDb(pool);
  const tables = async () =>
    (
      await sql<{
        table_name: string;
      }>`select table_name from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_%' order by 1`.execute(
        db,
      )
    ).rows.map((r) => r.table_name);
  try {
    const applied = await migrateToLatest(db, pool);
    expect(applied).toContain("0001_core_tables");
    expect(await tables()).toEqual(
      expect.arrayContaining([
        "users",
        "sessions",
        "storytellers",
        "schedules",
        "prompts",
        "answers",
        "deliveries",
        "notifications",
        "groups",
        "group_members",
        "share_links",
        "outbox_messages",
        "contact_messages",
        "library_prompts",
        "prompt_categories",
      ]),
    );
    expect(await migrateToLatest(db, pool)).toEqual([]); // idempotent

    while (await migrateDown(db)) {
      // down until nothing is left
    }
    expect(await tables()).toEqual([]);
    await migrateToLatest(db, pool);
    expect(await tables()).toContain("users");
  } finally {
    await db.destroy();
    if (!pool.ended) await pool.end(); // graphile-worker's migrations use the pool directly
    // Dropping WITH (FORCE) ends any connection still closing; the pool logs that, harmlessly.
    allowConsoleErrors(2);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
});
