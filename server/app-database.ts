// For command-line tools (`npm run db:seed`, `npm run announce`): the database the app uses, i.e.
// DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (the running app's, or started here and
// stopped again by close()). Migrated first, so the tools also work before the first `npm start`.
import path from "node:path";
import pg from "pg";
import { type Config, completeConfig, parseEnv } from "~/config.server";
import { createDb, createPool, type Db } from "../db/client";
import { hasPendingMigrations, migrateToLatest } from "../db/migrator";
import { ensureDatabaseReady } from "./database-ready";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded-postgres";
import { loadOrCreateLocalSecrets } from "./local-state";

/** Whether PostgreSQL answers at this URL (the app already running its embedded one). */
async function answers(url: string) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function openAppDatabase(): Promise<{ db: Db; config: Config; close: () => Promise<void> }> {
  const env = parseEnv(process.env);
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = loadOrCreateLocalSecrets(dataDir);
  // The app's own secret: links in the messages a tool queues must open in the running app.
  const config = completeConfig(env, secrets);

  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    const running = `postgresql://heirloom:${encodeURIComponent(secrets.EMBEDDED_PG_PASSWORD)}@127.0.0.1:${config.EMBEDDED_PG_PORT}/heirloom`;
    if (await answers(running)) url = running;
    else {
      embedded = await startEmbeddedPostgres({
        dataDir,
        port: config.EMBEDDED_PG_PORT,
        password: secrets.EMBEDDED_PG_PASSWORD,
      });
      url = embedded.url;
    }
  }
  const pool = createPool(url, 2);
  const db = createDb(pool);
  const close = async () => {
    await db.destroy();
    await embedded?.stop();
  };
  try {
    await ensureDatabaseReady(pool, { pending: await hasPendingMigrations(db) });
    await migrateToLatest(db, pool);
  } catch (error) {
    await close();
    throw error;
  }
  return { db, config, close };
}
