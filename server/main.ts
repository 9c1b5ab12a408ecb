import "./env-file"; // first: `.env` fills process.env before any module reads it
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { run, type Runner } from "graphile-worker";
import type { ServerBuild } from "react-router";
import { ConfigError, completeConfig, parseEnv } from "~/config.server";
import type { AppServices } from "~/context.server";
import { log } from "~/services/logger.server";
import { createMailService } from "~/services/mail.server";
import { createSmsService } from "~/services/sms.server";
import { createStorageService } from "~/services/storage.server";
import { createVoiceService } from "~/services/voice.server";
import { createWhatsAppService } from "~/services/whatsapp.server";
import { createRateLimiter } from "~/utils/rate-limit.server";
import { createDb, createPool, type Db } from "../db/client";
import { hasPendingMigrations, migrateToLatest } from "../db/migrator";
import { cronItems } from "../jobs/crontab";
import { startSpeechWorker } from "../jobs/speech-worker";
import { createTaskList, WORKER_CONCURRENCY } from "../jobs/task-list";
import { ensureDatabaseReady } from "./database-ready";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded-postgres";
import { createHttpApp } from "./http";
import { loadOrCreateLocalSecrets } from "./local-state";
import { createMetrics } from "./metrics";
import { listenError, StartupError } from "./startup-error";
import { applyServerTimeouts } from "./timeouts";
import { PgLocker } from "./upload-locker";
import { workerLogger } from "./worker-logger";

/** Connections set aside for upload locks: more uploads than this at once wait for one. */
const UPLOAD_LOCK_CONNECTIONS = 20;

/** What has been started so far, so a failed boot or a signal stops exactly that, in reverse order. */
const started: {
  server?: Server;
  locker?: PgLocker;
  runner?: Runner;
  speech?: { stop(): Promise<void> };
  db?: Db;
  embedded?: EmbeddedDatabase;
} = {};
let stopping = false;

async function stopEverything() {
  const steps: [string, (() => Promise<unknown>) | undefined][] = [
    ["http", started.server && (() => closeServer(started.server!))],
    // Requests are over, so every lock is released; should one linger, its session ends with the process.
    [
      "upload locks",
      started.locker &&
        (() =>
          Promise.race([
            started.locker!.close().then(() => started.locker!.pool.end()),
            new Promise((resolve) => setTimeout(resolve, 5000).unref()),
          ])),
    ],
    // Both runners stop taking jobs at once; stopping aborts a running transcription after
    // graphile-worker's grace period (its child is killed).
    [
      "jobs",
      (started.runner || started.speech) &&
        (() => Promise.all([started.runner?.stop(), started.speech?.stop()]).then(() => undefined)),
    ],
    ["database pool", started.db && (() => started.db!.destroy())],
    ["embedded PostgreSQL", started.embedded && (() => started.embedded!.stop())],
  ];
  for (const [name, stop] of steps) {
    try {
      await stop?.();
    } catch (error) {
      log.error({ err: error }, `could not stop ${name}`);
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
    log.warn("second signal: exiting now");
    process.exit(1);
  }
  stopping = true;
  log.info(`${signal}: stopping`);
  await stopEverything();
  log.info("stopped");
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
  const web = config.WORKER !== "only";
  // Before the 2–3 s of PostgreSQL and migrations: a second `npm start` says so at once.
  if (web) await ensurePortFree(config.PORT, config.HOST);

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    log.info(`starting embedded PostgreSQL (data in ${path.join(dataDir, "postgres")})`);
    const postgresLog = log.child({ module: "postgres" });
    started.embedded = await startEmbeddedPostgres({
      dataDir,
      port: config.EMBEDDED_PG_PORT,
      password: secrets.EMBEDDED_PG_PASSWORD,
      log: process.env.DEBUG_POSTGRES
        ? (text) => text.split("\n").forEach((line) => line.trim() && postgresLog.info(line.trim()))
        : undefined,
    });
    databaseUrl = started.embedded.url;
  }

  const pool = createPool(databaseUrl);
  const db = (started.db = createDb(pool));
  await ensureDatabaseReady(pool, { pending: await hasPendingMigrations(db) });
  const applied = await migrateToLatest(db, pool);
  if (applied.length) log.info(`applied migrations: ${applied.join(", ")}`);

  const services: AppServices = {
    db,
    config,
    mail: createMailService(config),
    sms: createSmsService(config),
    storage: createStorageService(config),
    rateLimit: createRateLimiter(pool),
  };

  if (config.WORKER !== "off") {
    // Transcription has a runner of its own, one answer at a time (decision 036).
    const { answer__transcribe, ...taskList } = createTaskList({
      ...services,
      voice: createVoiceService(config, services.storage),
      whatsapp: createWhatsAppService(config, services.storage),
    });
    started.runner = await run({
      pgPool: pool,
      taskList,
      parsedCronItems: cronItems,
      concurrency: WORKER_CONCURRENCY,
      noHandleSignals: true,
      pollInterval: 2000,
      logger: workerLogger(log),
    });
    started.speech = await startSpeechWorker({
      pgPool: pool,
      db,
      config,
      task: answer__transcribe,
      logger: workerLogger(log),
    });
  }

  if (!web) {
    log.info(
      `jobs only, no HTTP, ready in ${Math.round(performance.now() - startedAt)} ms` +
        ` (mail: ${services.mail.name}, sms: ${services.sms.name})`,
    );
    return;
  }

  // Uploads are locked across every web process on this database, each lock on a connection of
  // its own (decision 024): this pool is sized for the uploads one process receives at once.
  const uploadLocker = (started.locker = new PgLocker(createPool(databaseUrl, UPLOAD_LOCK_CONNECTIONS)));
  await uploadLocker.listen();
  // Nothing is counted unless someone may read it.
  const metrics = config.METRICS_TOKEN ? createMetrics(db) : undefined;

  const production = config.NODE_ENV === "production";
  const clientDir = path.resolve("build/client");
  let app;
  if (production) {
    const buildFile = path.resolve("build/server/index.js");
    if (!existsSync(buildFile))
      throw new Error("no production build: run `npm run build` (or `npm start`, which builds)");
    const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
    app = createHttpApp({ services, build, clientDir, uploadLocker, metrics });
  } else {
    const vite = await withoutNewSignalListeners(() =>
      import("vite").then((viteModule) => viteModule.createServer({ server: { middlewareMode: true } })),
    );
    app = createHttpApp({
      services,
      clientDir,
      uploadLocker,
      metrics,
      devMiddleware: vite.middlewares,
      build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    });
  }

  started.server = await new Promise<Server>((resolve, reject) => {
    const server = app.listen(config.PORT, config.HOST, () => resolve(server));
    server.once("error", (error) => reject(listenError(error, config.PORT, "PORT")));
  });
  applyServerTimeouts(started.server);
  log.info(
    `ready on ${config.APP_URL} in ${Math.round(performance.now() - startedAt)} ms` +
      ` (mail: ${services.mail.name}, sms: ${services.sms.name}, worker: ${config.WORKER})`,
  );
  if (config.mailUsesOutbox || config.smsUsesOutbox) log.info(`outbox: ${config.APP_URL}/dev/outbox`);
}

function ensurePortFree(port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", (error) => reject(listenError(error, port, "PORT")));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/**
 * React Router's Vite plugin starts an inner Vite server whose SIGTERM listener closes it and calls
 * process.exit() at once, cutting the shutdown below short (PostgreSQL left to the exit backstop).
 * Signals are this file's: listeners added while `work` runs are removed.
 */
async function withoutNewSignalListeners<T>(work: () => Promise<T>): Promise<T> {
  const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return await work();
  } finally {
    for (const signal of signals) {
      for (const listener of process.listeners(signal))
        if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
}

main().catch(async (error) => {
  // A signal during boot is already stopping everything; what that breaks in the boot is expected.
  if (stopping) return;
  // One clear line when the message says what to change (a bad variable, a busy port); otherwise the stack.
  if (error instanceof ConfigError || error instanceof StartupError) log.fatal(error.message);
  else log.fatal({ err: error }, "failed to start");
  stopping = true;
  await stopEverything();
  process.exit(1);
});
