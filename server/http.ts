import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Locker } from "@tus/server";
import compression from "compression";
import express, { type Request } from "express";
import expressStaticGzip from "express-static-gzip";
import type { ServerBuild } from "react-router";
import { servesHttps } from "~/config.server";
import type { AppContext, AppServices } from "~/context.server";
import { databaseAnswers } from "~/models/health.server";
import { log as defaultLog, type Logger, withLogBindings } from "~/services/logger.server";
import { METRICS_PATH, type Metrics, metricsEndpoint, routePatterns } from "./metrics";
import { plainMessage } from "./plain-messages";
import { createRequestHandler, requestUrl } from "./request-handler";
import { cspNonce, csrfCheck, securityHeaders } from "./security";
import { createUploadServer, UPLOADS_PATH } from "./uploads";

type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/;
const PROXY_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip", "via"];

/**
 * True only for a direct connection from this machine addressed to a loopback name: not relayed by a
 * proxy, and not a DNS-rebinding page whose Host is some other name resolving to 127.0.0.1.
 */
export function fromLoopback(req: Pick<Request, "headers" | "socket">): boolean {
  const address = req.socket.remoteAddress ?? "";
  const host = req.headers.host ?? "";
  return LOOPBACK.test(address) && LOOPBACK_HOST.test(host) && !PROXY_HEADERS.some((name) => req.headers[name]);
}

export function createHttpApp(options: {
  services: AppServices;
  build: BuildSource;
  /** Vite's dev middleware in development; static files from build/client in production. */
  devMiddleware?: express.RequestHandler;
  clientDir: string;
  /** Where the request lines go (tests pass their own). */
  log?: Logger;
  /** Shared by every web process on the database (server/upload-locker.ts); else in memory. */
  uploadLocker?: Locker;
  /** Request latency is counted here; GET /metrics serves it when METRICS_TOKEN is set. */
  metrics?: Metrics;
}) {
  const { services } = options;
  const { config } = services;
  const log = options.log ?? defaultLog;
  const production = config.NODE_ENV === "production";
  const app = express();
  app.disable("x-powered-by");
  // Counted only when someone may read them: no token, no series to grow.
  const metrics = config.METRICS_TOKEN ? options.metrics : undefined;
  app.use(requestLog(log, metrics && { metrics, patternOf: routePatterns(options.build) }));
  // One proxy in front (the usual TLS terminator): the client is the last address it appended.
  // Trusting every hop would let clients pick their own address with X-Forwarded-For.
  if (config.TRUST_PROXY) app.set("trust proxy", 1);

  // Load balancers ask often and read two bytes of text: answered before compression, the security
  // headers (no page, no script), CSRF (GET only) and React Router, by the route's own loader.
  app.get("/healthz", healthCheck(services));

  app.use(compression());
  app.use(cspNonce);
  app.use(securityHeaders({ production, https: servesHttps(config) }));

  // Everything after reads the Host (the CSRF check, uploads, React Router's URL): a request that
  // names no usable host is the client's fault, answered 400 without a stack.
  app.use((req, res, next) => {
    if (requestUrl(req)) return next();
    res.status(400).type("text/plain").send(plainMessage("badHost", config.APP_NAME));
  });

  if (options.devMiddleware) {
    app.use(options.devMiddleware);
  } else {
    // Hashed assets, precompressed at build time (scripts/precompress.mjs): brotli where accepted.
    app.use(
      "/assets",
      expressStaticGzip(path.join(options.clientDir, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gz"],
        serveStatic: { immutable: true, maxAge: "1y", index: false },
      }),
    );
    // The few files beside the assets (favicon): looked up by name, so a page request costs no
    // file-system lookup.
    const rootFiles = new Set(
      readdirSync(options.clientDir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `/${entry.name}`),
    );
    const serveRootFile = express.static(options.clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()));
  }

  // Before maintenance mode: an operator watches the site most closely then.
  if (metrics) app.get(METRICS_PATH, metricsEndpoint(metrics, config.METRICS_TOKEN));

  if (config.MAINTENANCE_MODE) {
    // Every page becomes the maintenance page (its loader answers 503); static files still load.
    app.use((req, res, next) => {
      if (req.path === "/healthz") return next();
      if (req.method === "GET" || req.method === "HEAD") {
        // The React Router adapter builds its Request from originalUrl.
        req.url = req.originalUrl = "/maintenance";
        return next();
      }
      res.status(503).set("Retry-After", "600").type("text/plain").send(plainMessage("maintenance", config.APP_NAME));
    });
  }

  app.use(csrfCheck(new URL(config.APP_URL).origin, config.APP_NAME));

  // Resumable recording uploads (tus) stream straight to the upload store, outside React Router.
  const uploads = createUploadServer(services, { locker: options.uploadLocker });
  app.all([UPLOADS_PATH, `${UPLOADS_PATH}/*`], (req, res, next) => {
    uploads.handle(req, res).catch(next);
  });

  // The React Router adapter appends each response header; one the security headers already set
  // (Referrer-Policy on capability pages, nosniff on files) replaces it instead of doubling it.
  app.use((_req, res, next) => {
    const append = res.append.bind(res);
    res.append = (field: string, value?: string | string[]) => {
      if (field.toLowerCase() !== "set-cookie" && res.hasHeader(field)) res.removeHeader(field);
      return append(field, value);
    };
    next();
  });

  app.all(
    "*",
    createRequestHandler({
      build: options.build,
      mode: production ? "production" : "development",
      getLoadContext: (req, res): AppContext => ({
        ...services,
        cspNonce: res.locals.cspNonce,
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        fromLoopback: fromLoopback(req),
      }),
    }),
  );

  app.use(lastResort(log, config.APP_NAME));

  return app;
}

/**
 * What app/routes/healthz.ts answers, without building a fetch Response and reading it back (a
 * seventh of the check's CPU). The route stays for servers that mount the build without this app.
 */
function healthCheck(services: AppServices): express.RequestHandler {
  return (_req, res, next) => {
    databaseAnswers(services.db)
      .then((answers) => {
        res.status(answers ? 200 : 503).set(HEALTH_HEADERS);
        // Not res.send: no ETag to hash for an answer that is never cached.
        res.end(answers ? "ok" : "database unavailable");
      })
      .catch(next);
  };
}
const HEALTH_HEADERS = {
  "Cache-Control": "no-store",
  "Content-Type": "text/plain",
  "X-Content-Type-Options": "nosniff",
};

/**
 * Express's last error handler: logs the error and never shows a stack trace. A response already
 * under way cannot become an error page, so its connection is ended: the client sees the failure at
 * once instead of waiting for the rest.
 */
export function lastResort(log: Logger, appName: string): express.ErrorRequestHandler {
  return (error, _req, res, _next) => {
    log.error({ err: error, reqId: res.locals.requestId }, "unhandled error");
    if (!res.headersSent) res.status(500).type("text/plain").send(plainMessage("serverError", appName));
    else if (!res.writableEnded) res.destroy();
  };
}

/** Vite's own requests in development (modules, HMR client, source files): noise at info. */
const DEV_ASSET = /^\/(@vite|@fs|@id|@react-refresh|node_modules|app)\//;

/**
 * One line per request once the response is done: request id (also sent as X-Request-Id, and bound
 * to every line logged while handling it), method, path, status and duration. Static files,
 * /healthz and /metrics that succeed are logged at debug only. `counting` counts each request's
 * duration under its route (`metricsRoute`).
 */
export function requestLog(
  log: Logger,
  counting?: { metrics: Metrics; patternOf: (path: string) => string },
): express.RequestHandler {
  return (req, res, next) => {
    const reqId = randomUUID();
    const started = process.hrtime.bigint();
    // As asked, before maintenance mode rewrites it.
    const path = loggablePath(req.originalUrl);
    res.locals.requestId = reqId;
    res.setHeader("X-Request-Id", reqId);
    const done = () => {
      res.removeListener("finish", done);
      res.removeListener("close", done);
      const status = res.statusCode;
      const noise =
        path === "/healthz" ||
        path === METRICS_PATH ||
        path.startsWith("/assets/") ||
        DEV_ASSET.test(path) ||
        /\.\w+$/.test(path);
      // 503 is the maintenance page, answered on purpose.
      const level = status >= 500 && status !== 503 ? "warn" : noise && status < 400 ? "debug" : "info";
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const fields = {
        reqId,
        method: req.method,
        path,
        status,
        ms: Math.round(seconds * 1e4) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      log[level](fields, "request");
      counting?.metrics.observeRequest(
        req.method,
        metricsRoute(path, status, noise, counting.patternOf),
        status,
        seconds,
      );
    };
    res.once("finish", done);
    res.once("close", done);
    withLogBindings({ reqId }, next);
  };
}

/** Capability tokens, invitation tokens and upload ids are credentials: they never reach a log. */
const SECRET_SEGMENTS: [RegExp, (match: string, route: string) => string][] = [
  [/^\/(record|unsubscribe|s|invitations)\/[^/]+/i, (_match, route) => `/${route.toLowerCase()}/:token`],
  [/^\/(uploads)\/[^/]+/i, () => "/uploads/:id"],
  [/^\/phone\/play\/[^/]+/i, () => "/phone/play/:token"],
];

/**
 * A route for the latency histogram, few enough to keep Prometheus's series bounded whoever asks:
 * one for every page not found, one for static files, the uploads' two, and otherwise the pattern of
 * the React Router route the path matches (`patternOf`), never the path itself.
 */
export function metricsRoute(
  path: string,
  status: number,
  staticFile: boolean,
  patternOf: (path: string) => string,
): string {
  if (status === 404) return "(not found)";
  if (path === "/healthz" || path === METRICS_PATH) return path;
  if (staticFile) return "(static)";
  if (path === UPLOADS_PATH) return UPLOADS_PATH;
  if (path.startsWith(`${UPLOADS_PATH}/`)) return `${UPLOADS_PATH}/:id`;
  return patternOf(path);
}

/** The path without its query string, with tokens replaced, at most 200 characters. */
export function loggablePath(url: string): string {
  // Routes match decoded and case-insensitively, so /%72ecord/<token> and /Record/<token> are links
  // too: printable ASCII escapes are decoded first (never failing, unlike decodeURIComponent).
  let path = url
    .split(/[?#]/)[0]
    .replace(/%([2-7][0-9a-f])/gi, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\/{2,}/g, "/");
  for (const [pattern, replacement] of SECRET_SEGMENTS) path = path.replace(pattern, replacement);
  // Any JWT-shaped segment elsewhere (a token in a path we did not foresee).
  path = path.replace(/\/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, "/:token");
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
