import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Locker } from "@tus/server";
import type { ServerBuild } from "react-router";
import type { AppContext } from "~/context.server";
import { createHttpApp } from "../server/http";
import type { Metrics } from "../server/metrics";
import { makeTestContext } from "./context";
import type { TestDatabase } from "./db";

const buildFile = path.resolve("build/server/index.js");

export type ServedBuild = {
  /** http://127.0.0.1:<port>, no trailing slash. */
  base: string;
  /** The context the server's services come from (NODE_ENV=production plus `env`). */
  context: AppContext;
  close: () => Promise<void>;
};

/**
 * The production build (build/server, build/client) on the real Express app (server/http.ts), listening
 * on a free port of 127.0.0.1, with the services of `makeTestContext(database, { NODE_ENV: "production", ...env })`.
 */
export async function serveBuild(
  database: TestDatabase,
  options: { env?: Record<string, string>; metrics?: Metrics; uploadLocker?: Locker } = {},
): Promise<ServedBuild> {
  if (!existsSync(buildFile))
    throw new Error("build/server/index.js is missing: run `npm run build` first (npm test does).");
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
  const context = makeTestContext(database, { NODE_ENV: "production", ...options.env });
  // Per-request values: the app works these out for each request itself.
  const { cspNonce: _n, clientIp: _c, fromLoopback: _l, ...services } = context;
  const app = createHttpApp({
    services,
    build,
    clientDir: path.resolve("build/client"),
    metrics: options.metrics,
    uploadLocker: options.uploadLocker,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, context, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
