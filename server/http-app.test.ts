import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "~/services/logger.server";
import { makeTestContext } from "../tests/context";
import { useTestDatabase } from "../tests/db";
import { resourceRouteBuild } from "../tests/route-build";
import { createHttpApp } from "./http";
import { createMetrics, METRICS_PATH, type Metrics, routePatterns, UNMATCHED } from "./metrics";

// The whole Express app (server/http.ts) in front of a small React Router build, over real sockets:
// what a stranger's odd requests cost it, in answers, log lines and metrics series.

const database = useTestDatabase();
const TOKEN = "metrics-token-0123456789abcdef";
const lines: string[] = [];
const logged = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; status?: number });
const build = resourceRouteBuild(() => new Response("a page"), ["record/:token", "dashboard/recipient/:id/edit", "*"]);

async function serve(env: Record<string, string>, metrics?: Metrics) {
  const {
    cspNonce: _n,
    clientIp: _c,
    fromLoopback: _l,
    ...services
  } = makeTestContext(database, {
    NODE_ENV: "production",
    ...env,
  });
  const app = createHttpApp({
    services,
    build,
    clientDir: mkdtempSync(path.join(tmpdir(), "heirloom-client-")),
    log: createLogger({ level: "debug", json: true, destination: { write: (line: string) => void lines.push(line) } }),
    metrics,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  // fetch keeps connections; under load one the server closed while idle would be reused as it closes.
  server.keepAliveTimeout = 120_000;
  return { server, port: (server.address() as AddressInfo).port };
}

/** The status line of the answer to `head` sent as is (no client library to mend the Host). */
function rawStatus(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (text.includes("\r\n")) {
        socket.destroy();
        resolve(text.slice(0, text.indexOf("\r\n")));
      }
    });
    socket.on("error", reject);
    socket.on("end", () => resolve(text));
  });
}

beforeEach(() => {
  lines.length = 0;
});

describe("a request whose Host names no host", () => {
  let site: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    site = await serve({});
  });
  afterAll(() => new Promise<void>((resolve) => site.server.close(() => resolve())));

  it("is a 400 in words, logged at info, for each of the six ways", async () => {
    const heads = [
      "GET / HTTP/1.0\r\n\r\n",
      "GET / HTTP/1.1\r\nConnection: close\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: [zz\r\nConnection: close\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a:99999\r\nConnection: close\r\n\r\n",
    ];
    for (const head of heads) expect(await rawStatus(site.port, head), head).toMatch(/^HTTP\/1\.[01] 400 /);
    // A post too, before the CSRF check reads its Host.
    expect(
      await rawStatus(site.port, "POST /dashboard HTTP/1.0\r\nOrigin: http://a b\r\nContent-Length: 0\r\n\r\n"),
    ).toMatch(/^HTTP\/1\.[01] 400 /);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Node answers HTTP/1.1 without Host itself, before the app: the other five and the post are ours.
    expect(logged().filter((line) => line.msg === "request")).toHaveLength(6);
    expect(logged().filter((line) => line.level >= 50)).toEqual([]);
    // The same page with a Host is answered.
    expect(await rawStatus(site.port, "GET /x HTTP/1.0\r\nHost: family.example\r\n\r\n")).toMatch(/ 200 /);
  });

  it("says so in both languages", async () => {
    const response = await new Promise<string>((resolve) => {
      const socket = connect(site.port, "127.0.0.1", () => socket.write("GET / HTTP/1.0\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      socket.on("end", () => resolve(text));
    });
    expect(response).toContain("did not say which website");
    expect(response).toContain("किस वेबसाइट");
  });
});

/** The `route` labels of the request histogram, as /metrics shows them. */
async function routeLabels(port: number): Promise<Set<string>> {
  const text = await (
    await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
  ).text();
  return new Set(
    [...text.matchAll(/^heirloom_http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]),
  );
}

/** The build's patterns (and the scrape's own path): every label there may be. */
const ROUTES = ["/", "/*", "/record/:token", "/dashboard/recipient/:id/edit", METRICS_PATH];

const randomSegment = () => Math.random().toString(36).slice(2);

/** A stranger's request to a made-up path: a cross-site post (403) or a page that is not there (404). */
function strangersRequest(port: number, i: number) {
  const made = [
    `/${randomSegment()}`,
    `/${randomSegment()}/${randomSegment()}`,
    `/record/${randomSegment()}`,
    `/dashboard/recipient/${randomSegment()}/edit`,
    `/dashboard/${randomSegment()}x1/${i}`,
  ][i % 5];
  return fetch(`http://127.0.0.1:${port}${made}`, {
    // A few pages in the first hundred; the rest the attack itself, cross-site posts refused.
    method: i < 100 && i % 7 === 0 ? "GET" : "POST",
    headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://elsewhere.example" },
  }).then((response) => response.arrayBuffer());
}

describe("the metrics of strangers' requests", () => {
  // Ten thousand requests take a minute or more on a busy two-core machine.
  it("keep as many route series after 10,000 made-up paths as after 100", { timeout: 300_000 }, async () => {
    const metrics = createMetrics(database.db);
    const site = await serve({ METRICS_TOKEN: TOKEN }, metrics);
    try {
      const send = async (from: number, to: number) => {
        for (let i = from; i < to; i += 50)
          await Promise.all(Array.from({ length: Math.min(50, to - i) }, (_, k) => strangersRequest(site.port, i + k)));
      };
      await send(0, 100);
      // The first scrape is itself counted, under /metrics.
      await routeLabels(site.port);
      const early = await routeLabels(site.port);
      await send(100, 10_000);
      const late = await routeLabels(site.port);
      expect(late).toEqual(early);
      // Each made-up path counted under its route's pattern, never as itself.
      expect([...late].filter((label) => !ROUTES.includes(label))).toEqual([]);
      expect(late).toContain("/record/:token");
    } finally {
      await new Promise<void>((resolve) => site.server.close(() => resolve()));
    }
  });

  it("name a path no route matches as unmatched", () => {
    const patternOf = routePatterns(resourceRouteBuild(() => new Response(""), ["record/:token", "s/:token/audio"]));
    expect(patternOf("/record/:token")).toBe("/record/:token");
    expect(patternOf("/S/abc/audio")).toBe("/s/:token/audio");
    expect(patternOf("/wp-login.php")).toBe(UNMATCHED);
    expect(patternOf("/record/a/b")).toBe(UNMATCHED);
  });

  it("are not counted at all while METRICS_TOKEN is unset", async () => {
    const metrics = createMetrics(database.db);
    const site = await serve({}, metrics);
    try {
      for (let i = 0; i < 20; i++) await strangersRequest(site.port, i);
      expect(await metrics.registry.getSingleMetric("heirloom_http_request_duration_seconds")?.get()).toMatchObject({
        values: [],
      });
    } finally {
      await new Promise<void>((resolve) => site.server.close(() => resolve()));
    }
  });
});
