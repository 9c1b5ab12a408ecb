import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { plainMessage } from "./plain-messages";

/** A fresh nonce per response; the CSP allows only scripts carrying it (plus our own files). */
export function cspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
}

export function securityHeaders(options: { production: boolean; https: boolean }) {
  return helmet({
    contentSecurityPolicy: options.production
      ? {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:", "blob:"],
            mediaSrc: ["'self'", "blob:"],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
            baseUri: ["'self'"],
            objectSrc: ["'none'"],
            ...(options.https ? { upgradeInsecureRequests: [] } : {}),
          },
        }
      : false, // Vite's dev server injects inline scripts without a nonce.
    strictTransportSecurity:
      options.production && options.https ? { maxAge: 63072000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "same-origin" },
    xFrameOptions: { action: "deny" },
  });
}

/** Paths that take cross-site POSTs: they authenticate by signature or token instead of origin. */
const CSRF_EXEMPT = [/^\/webhooks\//, /^\/unsubscribe\/[^/]+$/];

/**
 * Refuses state-changing requests that a browser marks as coming from another site. Browsers send
 * Sec-Fetch-Site (modern) or Origin (older); requests with neither are not from a browser page.
 */
export function csrfCheck(appOrigin: string, appName: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    if (CSRF_EXEMPT.some((pattern) => pattern.test(req.path)) || isSameSiteRequest(req, appOrigin)) {
      // Pages sent with Referrer-Policy: no-referrer (capability links) make the browser post
      // "Origin: null", which React Router's own origin check would refuse. This check has decided.
      if (req.headers.origin === "null") delete req.headers.origin;
      return next();
    }
    res.status(403).type("text/plain").send(plainMessage("crossSite", appName));
  };
}

export function isSameSiteRequest(req: Pick<Request, "headers" | "protocol">, appOrigin: string): boolean {
  const fetchSite = req.headers["sec-fetch-site"];
  if (typeof fetchSite === "string") return fetchSite === "same-origin" || fetchSite === "none";
  const origin = req.headers.origin;
  if (typeof origin !== "string") return true;
  const ownOrigin = `${req.protocol}://${req.headers.host}`;
  return origin === appOrigin || origin === ownOrigin;
}
