import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { run, type Runner } from "graphile-worker";
import { ConfigError, completeConfig, parseEnv } from "~/config.server";
import type { AppServices } from "~/context.server";
import { createMailService } from "~/services/mail.server";
import { createSmsService } from "~/services/sms.server";
import { createRateLimiter } from "~/utils/rate-limit.server";
import { createDb, createPool } from "../db/client";
import { migrateToLatest } from "../db/migrator";
import { createTaskList } from "../jobs/task-list";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded-postgres";
import { createHttpApp } from "./http";
import { loadOrCreateLocalSecrets } from "./local-state";

const log = (message: string) => console.log(`[heirloom] ${message}`);

// Boot order: config → database → migrations → job runner → HTTP. Shutdown runs it backwards.
async function main() {
  const startedAt = performance.now();
  let env;
  try {
    env = parseEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = loadOrCreateLocalSecrets(dataDir);
  const config = completeConfig(env, secrets);

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    log(`starting embedded PostgreSQL (data in ${path.join(dataDir, "postgres")})`);
    embedded = await startEmbeddedPostgres({
      dataDir,
      port: config.EMBEDDED_PG_PORT,
      password: secrets.EMBEDDED_PG_PASSWORD,
      log: process.env.DEBUG_POSTGRES ? (line) => console.log(`[postgres] ${line}`) : undefined,
    });
    databaseUrl = embedded.url;
  }

  const pool = createPool(databaseUrl);
  const db = createDb(pool);
  const applied = await migrateToLatest(db, pool);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);

  const services: AppServices = {
    db,
    config,
    mail: createMailService(config),
    sms: createSmsService(config),
    rateLimit: createRateLimiter(pool),
  };

  let runner: Runner | undefined;
  if (config.WORKER === "on") {
    runner = await run({
      pgPool: pool,
      taskList: createTaskList(services),
      concurrency: 4,
      parsedCronItems: [], // no scheduled tasks yet (the delivery issue adds the tick)
      noHandleSignals: true,
      pollInterval: 2000,
    });
  }

  const production = config.NODE_ENV === "production";
  const clientDir = path.resolve("build/client");
  let app;
  if (production) {
    const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
    app = createHttpApp({ services, build, clientDir });
  } else {
    const vite = await import("vite").then((viteModule) =>
      viteModule.createServer({ server: { middlewareMode: true } }),
    );
    app = createHttpApp({
      services,
      clientDir,
      devMiddleware: vite.middlewares,
      build: () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>,
    });
  }

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(config.PORT, config.HOST, () => resolve(listening));
  });
  log(
    `ready on ${config.APP_URL} in ${Math.round(performance.now() - startedAt)} ms` +
      ` (mail: ${services.mail.name}, sms: ${services.sms.name}, worker: ${config.WORKER})`,
  );
  if (config.mailUsesOutbox || config.smsUsesOutbox) log(`outbox: ${config.APP_URL}/dev/outbox`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      log("second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: stopping`);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    });
    await runner?.stop();
    await db.destroy();
    await embedded?.stop();
    log("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  console.error("[heirloom] failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
