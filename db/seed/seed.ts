// `npm run db:seed` (or `npm run db:seed -- --email you@example.org`): the demo family of
// db/seed/demo-family.ts, in the database the app uses: DATABASE_URL, or the embedded PostgreSQL
// under DATA_DIR (the running app's, or started here and stopped again). Migrates first, so it
// also works before the first `npm start`. Running it again adds nothing.
import "../../server/env-file";
import path from "node:path";
import pg from "pg";
import { ConfigError, completeConfig, parseEnv } from "~/config.server";
import { createStorageService } from "~/services/storage.server";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../server/embedded-postgres";
import { loadOrCreateLocalSecrets } from "../../server/local-state";
import { StartupError } from "../../server/startup-error";
import { createDb, createPool } from "../client";
import { migrateToLatest } from "../migrator";
import { DEMO_EMAIL, seedDemoFamily } from "./demo-family";

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

function emailArgument(): string | undefined {
  const index = process.argv.indexOf("--email");
  const value = index >= 0 ? process.argv[index + 1] : process.argv.find((arg) => arg.startsWith("--email="))?.slice("--email=".length);
  if (index >= 0 && !value) throw new ConfigError("--email needs an address");
  if (value && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new ConfigError(`--email ${value} is not an email address`);
  return value;
}

async function main() {
  const email = emailArgument() ?? DEMO_EMAIL;
  const env = parseEnv(process.env);
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = loadOrCreateLocalSecrets(dataDir);
  // The app's own secret: the record links in the demo's messages must open in the running app.
  const config = completeConfig(env, secrets);

  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    const running = `postgresql://heirloom:${encodeURIComponent(secrets.EMBEDDED_PG_PASSWORD)}@127.0.0.1:${config.EMBEDDED_PG_PORT}/heirloom`;
    if (await answers(running)) url = running;
    else {
      embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_PG_PORT, password: secrets.EMBEDDED_PG_PASSWORD });
      url = embedded.url;
    }
  }
  const pool = createPool(url, 2);
  const db = createDb(pool);
  try {
    await migrateToLatest(db, pool);
    const summary = await seedDemoFamily({ db, config, storage: createStorageService(config) }, { email });
    for (const s of summary.storytellers) {
      console.log(
        `${s.created ? "Added" : "Already there:"} ${s.nickname} (${s.language === "hi" ? "Hindi" : "English"}): ` +
          `${s.sent} prompts sent, ${s.answers} answered with audio and a transcript, ${s.queued} waiting in the queue`,
      );
    }
    console.log(`\nSign in as ${summary.email}${summary.userCreated ? "" : " (the account was already there)"}:`);
    console.log(`  1. start the app (npm start) and open ${config.APP_URL}/auth/login`);
    console.log(`  2. enter ${summary.email}`);
    if (config.mailUsesOutbox) console.log(`  3. the 6-digit code is in the outbox: ${config.APP_URL}/dev/outbox (from this computer)`);
    else console.log(`  3. the code goes out by email through Postmark: use an address you read (npm run db:seed -- --email you@example.org)`);
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

main().catch((error) => {
  // A ConfigError or StartupError is one line that says what to change; anything else keeps its stack.
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
