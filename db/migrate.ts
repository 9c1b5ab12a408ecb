// `npm run db:migrate` (to the latest) or `npm run db:migrate -- down` (undo the last one).
// Uses DATABASE_URL, or the embedded PostgreSQL under DATA_DIR like `npm start` (.env read first).
import "../server/env-file";
import path from "node:path";
import { ConfigError, parseEnv } from "~/config.server";
import { log } from "~/services/logger.server";
import { startEmbeddedPostgres } from "../server/embedded-postgres";
import { loadOrCreateLocalSecrets } from "../server/local-state";
import { StartupError } from "../server/startup-error";
import { createDb, createPool } from "./client";
import { migrateDown, migrateToLatest } from "./migrator";

async function main() {
  const direction = process.argv[2] ?? "up";
  if (direction !== "up" && direction !== "down")
    throw new ConfigError(`Unknown direction "${direction}": use up or down`);
  const env = parseEnv(process.env);
  const dataDir = path.resolve(env.DATA_DIR);
  const embedded = env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({
        dataDir,
        port: env.EMBEDDED_PG_PORT,
        password: loadOrCreateLocalSecrets(dataDir).EMBEDDED_PG_PASSWORD,
      });
  const pool = createPool(env.DATABASE_URL ?? embedded!.url, 2);
  const db = createDb(pool);
  try {
    if (direction === "up") {
      const applied = await migrateToLatest(db, pool);
      log.info(applied.length ? `applied migrations: ${applied.join(", ")}` : "migrations: already up to date");
    } else {
      const reverted = await migrateDown(db);
      log.info(reverted ? `reverted migration: ${reverted}` : "migrations: nothing to revert");
    }
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

main().catch((error) => {
  // A ConfigError or StartupError is one line that says what to change; anything else keeps its stack.
  if (error instanceof ConfigError || error instanceof StartupError) log.fatal(error.message);
  else log.fatal({ err: error }, "migration failed");
  process.exit(1);
});
