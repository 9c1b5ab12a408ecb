import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type Request } from "express";
import expressStaticGzip from "express-static-gzip";
import type { AppContext, AppServices } from "~/context.server";
import { createUploadServer, UPLOADS_PATH } from "~/services/uploads.server";
import { plainMessage } from "./plain-messages";
import { cspNonce, csrfCheck, securityHeaders } from "./security";

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
}) {
  const { services } = options;
  const { config } = services;
  const production = config.NODE_ENV === "production";
  const app = express();
  app.disable("x-powered-by");
  // One proxy in front (the usual TLS terminator): the client is the last address it appended.
  // Trusting every hop would let clients pick their own address with X-Forwarded-For.
  if (config.TRUST_PROXY) app.set("trust proxy", 1);

  app.use(compression());
  app.use(cspNonce);
  app.use(securityHeaders({ production, https: config.APP_URL.startsWith("https:") }));

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
    app.use(express.static(options.clientDir, { maxAge: "1h", index: false }));
  }

  if (config.MAINTENANCE_MODE) {
    // Every page becomes the maintenance page (its loader answers 503); static files still load.
    app.use((req, res, next) => {
      if (req.path === "/healthz") return next();
      if (req.method === "GET" || req.method === "HEAD") {
        // The Remix adapter builds its Request from originalUrl.
        req.url = req.originalUrl = "/maintenance";
        return next();
      }
      res.status(503).set("Retry-After", "600").type("text/plain").send(plainMessage("maintenance", config.APP_NAME));
    });
  }

  app.use(csrfCheck(new URL(config.APP_URL).origin, config.APP_NAME));

  // Resumable recording uploads (tus) stream straight to the upload store, outside Remix.
  const uploads = createUploadServer(services);
  app.all([UPLOADS_PATH, `${UPLOADS_PATH}/*`], (req, res, next) => {
    uploads.handle(req, res).catch(next);
  });

  // The Remix adapter appends each response header; one the security headers already set
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

  // Last resort: never show a stack trace.
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    console.error("[http] unhandled error:", error);
    if (!res.headersSent) res.status(500).type("text/plain").send(plainMessage("serverError", config.APP_NAME));
  });

  return app;
}
