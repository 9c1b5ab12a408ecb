import { randomBytes } from "node:crypto";
import { Metadata } from "@tus/server";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { log } from "~/services/logger.server";
import { plainMessage } from "./plain-messages";
import { UPLOADS_PATH } from "./uploads";

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
 * Paths whose one credential is in the request itself, never a cookie: a record link's token in the
 * path, or an upload's random id (decision 019). Forging a post to them needs that token, so they
 * also take the posts old browsers make from our own pages: no Sec-Fetch-Site (Safari before 16.4)
 * with `Origin: null` (a page served with Referrer-Policy: no-referrer) or with no Origin at all.
 * A browser that says the post comes from another site is still refused.
 */
const TOKEN_ONLY = [/^\/record\/[^/]+$/, new RegExp(`^${UPLOADS_PATH}/[^/]+$`)];

/** What the CSRF check reads of a request (an Express request, or a test's). */
export type PostRequest = Pick<Request, "method" | "path" | "protocol" | "headers"> & {
  /** X-Forwarded-Host, when the one proxy in front is trusted (TRUST_PROXY). */
  forwardedHost?: string;
};

/**
 * Why a state-changing request is refused, or null. Browsers send Sec-Fetch-Site (modern) or Origin
 * (older); requests with neither are not from a browser page. Session-authenticated routes accept
 * only our own origin; see `TOKEN_ONLY` for the others. Then React Router's own rule: an Origin other
 * than the request's (scheme and Host) is refused; answered here in words, where React Router gives
 * a bare 400 and an error-level log. Our own page under another Host is a proxy that rewrites Host
 * (README: the proxy must pass it), anything else came from elsewhere.
 */
export function postRefusal(req: PostRequest, appOrigin: string): "crossSite" | "wrongHost" | null {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return null;
  if (
    !CSRF_EXEMPT.some((pattern) => pattern.test(req.path)) &&
    !isSameSiteRequest(req, appOrigin) &&
    !(isTokenOnly(req) && isOpaqueOriginFromBrowserWithoutFetchMetadata(req))
  )
    return "crossSite";
  const origin = req.headers.origin;
  if (origin === undefined || origin === "null" || originMatchesRequest(req, origin)) return null;
  return isSameSiteRequest(req, appOrigin) ? "wrongHost" : "crossSite";
}

/** Answers `postRefusal`'s refusals with a translated 403; the request's own fault, so no stack. */
export function csrfCheck(appOrigin: string, appName: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const forwardedHost = req.app?.enabled("trust proxy") ? req.get("X-Forwarded-Host") : undefined;
    const { method, path, protocol, headers } = req;
    const refusal = postRefusal({ method, path, protocol, headers, forwardedHost }, appOrigin);
    if (refusal) {
      const level = refusal === "wrongHost" ? "warn" : "info";
      log[level]({ module: "csrf", origin: req.headers.origin, host: req.headers.host }, `post refused: ${refusal}`);
      res.status(403).type("text/plain").send(plainMessage(refusal, appName));
      return;
    }
    // React Router's own origin check would refuse "Origin: null"; this check has decided.
    if (req.headers.origin === "null") delete req.headers.origin;
    next();
  };
}

/** The origin React Router gives the request (server/request-handler.ts): scheme, and Host or a trusted X-Forwarded-Host. */
function originMatchesRequest(req: PostRequest, origin: string): boolean {
  const host = req.forwardedHost?.split(",")[0].trim() || req.headers.host;
  try {
    return new URL(origin).origin === new URL(`${req.protocol}://${host}`).origin;
  } catch {
    return false;
  }
}

export function isSameSiteRequest(req: Pick<Request, "headers" | "protocol">, appOrigin: string): boolean {
  const fetchSite = req.headers["sec-fetch-site"];
  if (typeof fetchSite === "string") return fetchSite === "same-origin" || fetchSite === "none";
  const origin = req.headers.origin;
  if (typeof origin !== "string") return true;
  const ownOrigin = `${req.protocol}://${req.headers.host}`;
  return origin === appOrigin || origin === ownOrigin;
}

/** No Fetch Metadata and an opaque origin: how Safari before 16.4 posts from a no-referrer page. */
function isOpaqueOriginFromBrowserWithoutFetchMetadata(req: Pick<Request, "headers">): boolean {
  return req.headers["sec-fetch-site"] === undefined && req.headers.origin === "null";
}

/**
 * True for a post whose authority is a token it carries: a record page's own form, a PATCH to an
 * upload, or the creation of an upload for a record link (its token in the tus metadata; an upload
 * from My Stories names a prompt and rides on the session instead, so it is not one of these).
 */
export function isTokenOnly(req: Pick<Request, "headers" | "path" | "method">): boolean {
  if (TOKEN_ONLY.some((pattern) => pattern.test(req.path))) return true;
  if (req.path !== UPLOADS_PATH || req.method !== "POST") return false;
  try {
    // tus's own parser: the server reads the same token the check saw (it refuses duplicate keys).
    return Boolean(Metadata.parse(String(req.headers["upload-metadata"] ?? "")).token);
  } catch {
    return false;
  }
}
