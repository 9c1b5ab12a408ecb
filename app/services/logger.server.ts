import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Level, type Logger } from "pino";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Sees each log call before it is written; returning true swallows it (tests/setup/fail-on-console-error.ts). */
export type LogWatcher = (level: Level, args: unknown[]) => boolean;

type Shared = { log: Logger; context: AsyncLocalStorage<Record<string, unknown>>; watchers: Set<LogWatcher> };

/**
 * One logger per process. The server build (and Vite's module runner in development) load their own
 * copy of this module, so the logger, the request context and the test watchers live on globalThis:
 * a loader's log line carries the request id that server/http.ts set.
 */
const SHARED = Symbol.for("heirloom.logger");
const globals = globalThis as unknown as { [SHARED]?: Shared };

function shared(): Shared {
  return (globals[SHARED] ??= {
    context: new AsyncLocalStorage(),
    watchers: new Set(),
    log: createLogger({ level: process.env.LOG_LEVEL, json: process.env.NODE_ENV === "production" }),
  });
}

/** A bad LOG_LEVEL falls back to info here; the config check at boot then stops with a line naming it. */
function parseLogLevel(value: string | undefined): LogLevel {
  return LOG_LEVELS.find((level) => level === value) ?? "info";
}

/**
 * JSON lines in production (one object per line: time, level, msg, reqId, err with its stack);
 * elsewhere one readable line each, with an error's stack indented below it. `destination` (tests)
 * replaces stdout and stderr.
 */
export function createLogger(
  options: { level?: string; json?: boolean; destination?: DestinationStream } = {},
): Logger {
  const json = options.json ?? false;
  const format = (stream: DestinationStream): DestinationStream =>
    json ? stream : { write: (line: string) => stream.write(readable(line)) };
  // Errors on stderr, the rest on stdout. Synchronous: the last line before process.exit (a failed
  // boot) must reach the terminal.
  const destination = options.destination
    ? format(options.destination)
    : pino.multistream(
        [
          { level: "trace", stream: format(pino.destination({ dest: 1, sync: true })) },
          { level: "error", stream: format(pino.destination({ dest: 2, sync: true })) },
        ],
        { dedupe: true },
      );
  return pino(
    {
      level: parseLogLevel(options.level),
      // pid and hostname tell processes apart in production; a terminal doesn't need them.
      ...(json ? {} : { base: null }),
      timestamp: json ? pino.stdTimeFunctions.isoTime : pino.stdTimeFunctions.epochTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => shared().context.getStore() ?? {},
      // Watchers see what would reach stdout and stderr; a logger with its own destination is a test's.
      hooks: options.destination ? {} : { logMethod: watched },
    },
    destination,
  );
}

function watched(this: Logger, args: Parameters<pino.LogFn>, method: pino.LogFn, level: number) {
  let swallowed = false;
  for (const watch of shared().watchers) swallowed = watch(this.levels.labels[level] as Level, args) || swallowed;
  if (!swallowed) method.apply(this, args);
}

/** `12:03:04 INFO  [db] message key=value`, then the stack of `err`, if any. */
export function readable(line: string): string {
  const { time, level, msg, module, err, ...fields } = JSON.parse(line) as Record<string, unknown>;
  const clock = new Date(Number(time)).toTimeString().slice(0, 8);
  const extras = Object.entries(fields).map(
    ([key, value]) => ` ${key}=${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
  const error = err as { stack?: string; message?: string } | undefined;
  const stack = error
    ? `\n    ${String(error.stack ?? error.message)
        .split("\n")
        .join("\n    ")}`
    : "";
  return `${clock} ${String(level).toUpperCase().padEnd(5)} ${module ? `[${module}] ` : ""}${msg ?? ""}${extras.join("")}${stack}\n`;
}

/** The process's logger: `log.error({ err: error }, "what failed")` keeps the error's stack. */
export const log: Logger = shared().log;

/** Runs `work` with `bindings` (a request id) added to every line logged inside it, however deep. */
export function withLogBindings<T>(bindings: Record<string, unknown>, work: () => T): T {
  return shared().context.run({ ...shared().context.getStore(), ...bindings }, work);
}

/** Test hook: `watcher` sees every enabled call of the process's loggers first. Returns a function that removes it. */
export function watchLogs(watcher: LogWatcher): () => void {
  shared().watchers.add(watcher);
  return () => void shared().watchers.delete(watcher);
}
