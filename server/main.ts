import { existsSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { run, type Runner } from "graphile-worker";
import { ConfigError, completeConfig, parseEnv } from "~/config.server";
import type { AppServices } from "~/context.server";
import { createMailService } from "~/services/mail.server";
import { createSmsService } from "~/services/sms.server";
import { createStorageService } from "~/services/storage.server";
import { createRateLimiter } from "~/utils/rate-limit.server";
import { createDb, createPool, type Db } from "../db/client";
import { migrateToLatest } from "../db/migrator";
import { cronItems } from "../jobs/crontab";
import { createTaskList, WORKER_CONCURRENCY } from "../jobs/task-list";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded-postgres";
import { createHttpApp } from "./http";
import { loadOrCreateLocalSecrets } from "./local-state";

const log = (message: string) => console.log(`[heirloom] ${message}`);

/** What has been started so far, so a failed boot or a signal stops exactly that, in reverse order. */
const started: { server?: Server; runner?: Runner; db?: Db; embedded?: EmbeddedDatabase } = {};
let stopping = false;

async function stopEverything() {
  const steps: [string, (() => Promise<unknown>) | undefined][] = [
    ["http", started.server && (() => closeServer(started.server!))],
    ["jobs", started.runner && (() => started.runner!.stop())],
    ["database pool", started.db && (() => started.db!.destroy())],
    ["embedded PostgreSQL", started.embedded && (() => started.embedded!.stop())],
  ];
  for (const [name, stop] of steps) {
    try {
      await stop?.();
    } catch (error) {
      console.error(`[heirloom] could not stop ${name}: ${(error as Error).message}`);
    }
  }
}

function closeServer(server: Server) {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  });
}

async function shutdown(signal: string) {
  if (stopping) {
    log("second signal: exiting now");
    process.exit(1);
  }
  stopping = true;
  log(`${signal}: stopping`);
  await stopEverything();
  log("stopped");
  process.exit(0);
}

// Boot order: config → database → migrations → job runner → HTTP. Signals are handled from the
// start, so Ctrl-C during initdb or migrations still stops PostgreSQL.
async function main() {
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  const startedAt = performance.now();
  const env = parseEnv(process.env);
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = loadOrCreateLocalSecrets(dataDir);
  const config = completeConfig(env, secrets);

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    log(`starting embedded PostgreSQL (data in ${path.join(dataDir, "postgres")})`);
    started.embedded = await startEmbeddedPostgres({
      dataDir,
      port: config.EMBEDDED_PG_PORT,
      password: secrets.EMBEDDED_PG_PASSWORD,
      log: process.env.DEBUG_POSTGRES ? (line) => console.log(`[postgres] ${line}`) : undefined,
    });
    databaseUrl = started.embedded.url;
  }

  const pool = createPool(databaseUrl);
  const db = (started.db = createDb(pool));
  const applied = await migrateToLatest(db, pool);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);

  const services: AppServices = {
    db,
    config,
    mail: createMailService(config),
    sms: createSmsService(config),
    storage: createStorageService(config),
    rateLimit: createRateLimiter(pool),
  };

  if (config.WORKER === "on") {
    started.runner = await run({
      pgPool: pool,
      taskList: createTaskList(services),
      parsedCronItems: cronItems,
      concurrency: WORKER_CONCURRENCY,
      noHandleSignals: true,
      pollInterval: 2000,
    });
  }

  const production = config.NODE_ENV === "production";
  const clientDir = path.resolve("build/client");
  let app;
  if (production) {
    const buildFile = path.resolve("build/server/index.js");
    if (!existsSync(buildFile)) throw new Error("no production build: run `npm run build` (or `npm start`, which builds)");
    const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
    app = createHttpApp({ services, build, clientDir });
  } else {
    const vite = await import("vite").then((viteModule) => viteModule.createServer({ server: { middlewareMode: true } }));
    app = createHttpApp({
      services,
      clientDir,
      devMiddleware: vite.middlewares,
      build: () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>,
    });
  }

  started.server = await new Promise<Server>((resolve, reject) => {
    const server = app.listen(config.PORT, config.HOST, () => resolve(server));
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new Error(`port ${config.PORT} is in use: stop the other server or set PORT`) : error),
    );
  });
  log(
    `ready on ${config.APP_URL} in ${Math.round(performance.now() - startedAt)} ms` +
      ` (mail: ${services.mail.name}, sms: ${services.sms.name}, worker: ${config.WORKER})`,
  );
  if (config.mailUsesOutbox || config.smsUsesOutbox) log(`outbox: ${config.APP_URL}/dev/outbox`);
}

main().catch(async (error) => {
  // One clear line (a ConfigError already names the variable); no stack trace for expected failures.
  const message = error instanceof ConfigError ? error.message : `failed to start: ${error instanceof Error ? error.message : String(error)}`;
  console.error(`[heirloom] ${message}`);
  await stopEverything();
  process.exit(1);
});
