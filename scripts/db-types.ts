// `npm run db:types`: migrates a scratch database and writes db/database.generated.ts from it.
// The scratch database is made on DATABASE_URL's server when set (its role needs CREATEDB), else in
// an embedded PostgreSQL under .data/db-types (port DB_TYPES_PG_PORT, 25436 by default).
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { createDb, createPool } from "../db/client";
import { migrateToLatest } from "../db/migrator";
import { GENERATED_FILE, generateDatabaseTypes } from "../db/types-codegen";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../server/embedded-postgres";
import { loadOrCreateLocalSecrets } from "../server/local-state";

async function onServer(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function main() {
  let embedded: EmbeddedDatabase | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = path.resolve(".data/db-types");
    const password = loadOrCreateLocalSecrets(dataDir).EMBEDDED_PG_PASSWORD;
    embedded = await startEmbeddedPostgres({ dataDir, port: Number(process.env.DB_TYPES_PG_PORT ?? 25436), password });
    serverUrl = embedded.url;
  }
  const name = `heirloom_types_${randomBytes(4).toString("hex")}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    await onServer(serverUrl, `CREATE DATABASE ${name}`);
    const pool = createPool(url.toString(), 2);
    const db = createDb(pool);
    try {
      await migrateToLatest(db, pool);
      const text = await generateDatabaseTypes(db);
      const before = await readFile(GENERATED_FILE, "utf8").catch(() => "");
      await writeFile(GENERATED_FILE, text);
      const relative = path.relative(process.cwd(), GENERATED_FILE);
      process.stdout.write(`${relative}: ${before === text ? "already current" : "written"}\n`);
    } finally {
      await db.destroy();
      if (!pool.ended) await pool.end();
    }
  } finally {
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`db:types failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
