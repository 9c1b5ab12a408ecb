import { createHash, timingSafeEqual } from "node:crypto";
import type express from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { deliveryCounts, jobQueues, uploadsInProgress } from "~/models/operations.server";
import { log } from "~/services/logger.server";
import type { Db } from "../db/client";

// GET /metrics in Prometheus's text format, only when METRICS_TOKEN is set and only for a request
// bearing it (decision 024). Request latency and the process's own figures are this process's;
// the queue, the send ledger and the uploads are the whole site's, read from PostgreSQL at each
// scrape, so every process reports the same values there (take max(), not sum(), across them).

export const METRICS_PATH = "/metrics";

export type Metrics = {
  registry: Registry;
  /** Counts one finished request: `route` is its route's pattern (`routePatterns`), never its path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
};

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const read = <T>(what: string, query: () => Promise<T>) =>
    query().catch((error: unknown) => {
      log.warn({ module: "metrics", err: error }, `could not read ${what}`);
      return null;
    });
  // Two series come from one query: asked once per scrape.
  let queues: { at: number; result: ReturnType<typeof jobQueues> } | undefined;
  const queuesNow = () => {
    if (!queues || Date.now() - queues.at > 1000) queues = { at: Date.now(), result: jobQueues(db) };
    return queues.result;
  };

  const requestSeconds = new Histogram({
    name: "heirloom_http_request_duration_seconds",
    help: "Time from a request's arrival until its response was sent, by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const requests = new Counter({
    name: "heirloom_http_requests_total",
    help: "Requests answered, by status class.",
    labelNames: ["status"] as const,
    registers: [registry],
  });

  new Gauge({
    name: "heirloom_jobs",
    help: "Background jobs by task and state (waiting: due, not taken; running; scheduled: due later; failed: out of attempts).",
    labelNames: ["task", "state"] as const,
    registers: [registry],
    async collect() {
      const queues = await read("the job queue", queuesNow);
      this.reset();
      for (const queue of queues ?? []) {
        for (const state of ["waiting", "running", "scheduled", "failed"] as const)
          this.set({ task: queue.task, state }, queue[state]);
      }
    },
  });
  new Gauge({
    name: "heirloom_job_oldest_waiting_seconds",
    help: "How long the oldest due job of each task has waited for a worker (0 when none waits).",
    labelNames: ["task"] as const,
    registers: [registry],
    async collect() {
      const queues = await read("the job queue", queuesNow);
      this.reset();
      for (const queue of queues ?? []) this.set({ task: queue.task }, queue.oldestWaitingSeconds);
    },
  });
  new Gauge({
    name: "heirloom_deliveries",
    help: "Rows of the send ledger by status (pending, sending, sent, failed, cancelled) and channel.",
    labelNames: ["status", "channel"] as const,
    registers: [registry],
    async collect() {
      const counts = await read("the send ledger", () => deliveryCounts(db));
      this.reset();
      for (const row of counts ?? []) this.set({ status: row.status, channel: row.channel }, row.count);
    },
  });
  new Gauge({
    name: "heirloom_uploads_in_progress",
    help: "Recordings whose bytes some web process is receiving right now (their upload locks are held).",
    registers: [registry],
    async collect() {
      const count = await read("the upload locks", () => uploadsInProgress(db));
      if (count !== null) this.set(count);
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requestSeconds.observe({ method, route, status: String(status) }, seconds);
      requests.inc({ status: `${Math.floor(status / 100)}xx` });
    },
  };
}

/** The route of a path no route of the build matches. */
export const UNMATCHED = "(unmatched)";

/**
 * A path's route pattern in the build ("/record/:token", "/dashboard/recipient/:id/edit", "/*"), or
 * `UNMATCHED`: the histogram's series are bounded by the routes, whatever paths strangers make up.
 * A development build (a function) is looked at again on each call; until it has loaded, UNMATCHED.
 */
export function routePatterns(build: ServerBuild | (() => Promise<ServerBuild>)): (path: string) => string {
  if (typeof build !== "function") return patternsOf(build);
  let current: ((path: string) => string) | undefined;
  return (path) => {
    void build().then(
      (loaded) => (current = patternsOf(loaded)),
      () => {},
    );
    return current?.(path) ?? UNMATCHED;
  };
}

const matchers = new WeakMap<ServerBuild, (path: string) => string>();

function patternsOf(build: ServerBuild): (path: string) => string {
  const known = matchers.get(build);
  if (known) return known;
  const routes = Object.values(build.routes);
  const tree = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((route) => route?.parentId === parentId)
      .map((route) => {
        const children = tree(route!.id);
        return route!.index
          ? { id: route!.id, path: route!.path, index: true, caseSensitive: route!.caseSensitive }
          : { id: route!.id, path: route!.path, caseSensitive: route!.caseSensitive, children };
      });
  const roots = tree(undefined);
  const match = (path: string) => {
    const matches = matchRoutes(roots, path);
    if (!matches) return UNMATCHED;
    const pattern = matches.map((m) => m.route.path ?? "").join("/");
    return `/${pattern}`.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  };
  matchers.set(build, match);
  return match;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * The endpoint: 404 (as for any unknown page) while METRICS_TOKEN is unset, 401 without the right
 * `Authorization: Bearer <token>`, the text format otherwise.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): express.RequestHandler {
  const expected = token ? digest(token) : null;
  return (req, res, next) => {
    if (!expected) return next();
    // Exactly "Bearer <token>": one space, no tabs or padding (RFC 6750); the scheme in any case (RFC 9110).
    const offered = /^Bearer ([\x21-\x7e]+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!offered || !timingSafeEqual(digest(offered), expected)) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("Unauthorized\n");
      return;
    }
    metrics.registry
      .metrics()
      .then((text) => {
        res.set("Cache-Control", "no-store").type(metrics.registry.contentType).send(text);
      })
      .catch(next);
  };
}
