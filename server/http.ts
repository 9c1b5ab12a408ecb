import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type Request } from "express";
import type { AppContext, AppServices } from "~/context.server";
import { cspNonce, csrfCheck, securityHeaders } from "./security";

type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** True only for a direct connection from this machine, never for one relayed by a proxy. */
function fromLoopback(req: Request): boolean {
  const address = req.socket.remoteAddress ?? "";
  return LOOPBACK.test(address) && !req.headers["x-forwarded-for"] && !req.headers.forwarded;
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
  if (config.TRUST_PROXY) app.set("trust proxy", true);

  app.use(compression());
  app.use(cspNonce);
  app.use(securityHeaders({ production, https: config.APP_URL.startsWith("https:") }));

  if (options.devMiddleware) {
    app.use(options.devMiddleware);
  } else {
    app.use("/assets", express.static(path.join(options.clientDir, "assets"), { immutable: true, maxAge: "1y" }));
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
      res.status(503).set("Retry-After", "600").type("text/plain").send("Heirloom is down for maintenance.");
    });
  }

  app.use(csrfCheck(new URL(config.APP_URL).origin));

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
    if (!res.headersSent) res.status(500).type("text/plain").send("Something went wrong.");
  });

  return app;
}
