import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "~/services/logger.server";
import { resourceRouteBuild } from "../tests/route-build";
import { lastResort, metricsRoute, requestLog } from "./http";
import { routePatterns } from "./metrics";

// The request log as an operator reads it: real Express, real HTTP, the JSON lines production writes.

const lines: string[] = [];
const destination = { write: (line: string) => void lines.push(line) };
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJyZWNvcmQiLCJzdWIiOiI0MiJ9.c2lnbmF0dXJlLXNlY3JldA";
let base = "";
let server: Server;

function app(level: string) {
  const log = createLogger({ level, json: true, destination });
  const application = express();
  application.use(requestLog(log));
  application.get("/inside", (_req, res) => {
    log.warn("something worth a look");
    res.send("ok");
  });
  application.get("/boom", (_req, res) => void res.status(500).send("no"));
  // As express.static and the health check answer them.
  application.get(["/healthz", "/assets/entry.client-abc123.js", "/favicon.ico"], (_req, res) => void res.send("ok"));
  application.get("/throws", () => {
    throw new Error("a bug");
  });
  application.get("/fails-midway", (_req, res, next) => {
    res.type("text/plain").write("the first part");
    setTimeout(() => next(new Error("the storage went away")), 20);
  });
  application.use((_req, res) => void res.status(404).send("not here"));
  application.use(lastResort(log, "Heirloom"));
  return application;
}

async function listen(level: string) {
  await new Promise<void>((resolve) => {
    server = app(level).listen(0, "127.0.0.1", () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The request line arrives when the response is done, just after the client has it. */
async function get(path: string) {
  const before = lines.length;
  const response = await fetch(`${base}${path}`);
  await response.text();
  for (let i = 0; i < 20 && !lines.slice(before).some((line) => line.includes('"msg":"request"')); i++)
    await new Promise((r) => setTimeout(r, 10));
  return response;
}

/** node:http, so a connection that ends early is seen as such. */
const fetchRaw = (path: string, onResponse: (response: http.IncomingMessage) => void) =>
  http.get(`${base}${path}`, onResponse);

beforeEach(() => {
  lines.length = 0;
});

describe("the request log at info", () => {
  beforeAll(() => listen("info"));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("writes one line per request with its id, method, path without the query, status and duration", async () => {
    const response = await get("/dashboard?search=grandma%40example.com");
    const [line] = logged();
    expect(lines).toHaveLength(1);
    expect(line).toMatchObject({ level: "info", msg: "request", method: "GET", path: "/dashboard", status: 404 });
    expect(line.reqId).toBe(response.headers.get("x-request-id"));
    expect(line.ms).toEqual(expect.any(Number));
    expect(lines[0]).not.toContain("grandma");
  });

  it("never writes a capability token or an upload id, however the path is spelled", async () => {
    const paths = {
      [`/record/${TOKEN}`]: "/record/:token",
      [`/record/${TOKEN}/audio?download=1`]: "/record/:token/audio",
      [`/unsubscribe/${TOKEN}`]: "/unsubscribe/:token",
      [`/s/${TOKEN}`]: "/s/:token",
      [`/s/${TOKEN}/audio`]: "/s/:token/audio",
      ["/uploads/3f1c2a9e-upload-id"]: "/uploads/:id",
      [`/phone/play/${TOKEN}`]: "/phone/play/:token",
      [`/Phone/Play/${TOKEN}`]: "/phone/play/:token",
      ["/invitations/inv1te5ecret0token"]: "/invitations/:token",
      ["/Invitations/inv1te5ecret0token?from=email"]: "/invitations/:token",
      [`/Record/${TOKEN}`]: "/record/:token",
      [`/%72ecord/${TOKEN}`]: "/record/:token",
      [`//unsubscribe/${TOKEN}`]: "/unsubscribe/:token",
      [`/somewhere/${TOKEN}`]: "/somewhere/:token",
    };
    for (const [path, expected] of Object.entries(paths)) {
      lines.length = 0;
      await get(path);
      expect(logged()[0]?.path, path).toBe(expected);
    }
    lines.length = 0;
    for (const path of Object.keys(paths)) await get(path);
    expect(lines.join("")).not.toContain("c2lnbmF0dXJl");
    expect(lines.join("")).not.toContain("3f1c2a9e");
    expect(lines.join("")).not.toContain("inv1te5ecret");
  });

  it("never writes a sign-in code or anything else from the query string", async () => {
    await get("/auth/verify?code=918273&email=grandma%40example.com");
    await get("/auth/magic-link?code=eyJhbGciOiJIUzI1NiJ9.c2lnbmVk.c2ln&redirectTo=%2Fdashboard");
    expect(logged().map((line) => line.path)).toEqual(["/auth/verify", "/auth/magic-link"]);
    expect(lines.join("")).not.toMatch(/918273|grandma|code=|c2ln/);
  });

  it("gives every line logged while handling a request that request's id", async () => {
    const response = await get("/inside");
    const [inside, request] = logged();
    expect(inside).toMatchObject({
      level: "warn",
      msg: "something worth a look",
      reqId: response.headers.get("x-request-id"),
    });
    expect(request).toMatchObject({ msg: "request", reqId: response.headers.get("x-request-id") });
  });

  it("raises a server error to warn", async () => {
    await get("/boom");
    expect(logged()[0]).toMatchObject({ level: "warn", status: 500, path: "/boom" });
  });

  it("leaves out health checks and static files that succeed, but not a missing one", async () => {
    await get("/healthz");
    await get("/assets/entry.client-abc123.js");
    await get("/favicon.ico");
    await get("/assets/entry.client-gone.js");
    expect(logged().map((line) => [line.level, line.path, line.status])).toEqual([
      ["info", "/assets/entry.client-gone.js", 404],
    ]);
  });
});

describe("the last error handler", () => {
  beforeAll(() => listen("info"));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers 500 with a plain message and no stack, and logs the error", async () => {
    const response = await fetch(`${base}/throws`);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toMatch(/a bug|at .*\.ts/);
    expect(logged()[0]).toMatchObject({ level: "error", msg: "unhandled error", err: { message: "a bug" } });
  });

  it("ends the connection of a response already under way at once", async () => {
    const outcome = await new Promise<{ complete: boolean } | "still open after 10 s">((resolve) => {
      // A stuck connection never closes; 10 s only keeps a loaded machine from failing a healthy one.
      const wait = setTimeout(() => resolve("still open after 10 s"), 10_000);
      const request = fetchRaw("/fails-midway", (response) => {
        response.resume();
        response.on("error", () => {});
        response.on("close", () => {
          clearTimeout(wait);
          resolve({ complete: response.complete });
        });
      });
      request.on("error", () => {});
    });
    expect(outcome).toEqual({ complete: false });
    expect(logged()[0]).toMatchObject({ level: "error", err: { message: "the storage went away" } });
    // Its request line, logged as the connection closes, stays in this test.
    for (let i = 0; i < 50 && logged().length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(logged()[1]).toMatchObject({ msg: "request", path: "/fails-midway", aborted: true });
  });
});

describe("the request log at debug", () => {
  beforeAll(() => listen("debug"));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("writes health checks and static files at debug only", async () => {
    await get("/healthz");
    await get("/assets/entry.client-abc123.js");
    await get("/favicon.ico");
    expect(logged().map((line) => [line.level, line.path])).toEqual([
      ["debug", "/healthz"],
      ["debug", "/assets/entry.client-abc123.js"],
      ["debug", "/favicon.ico"],
    ]);
  });
});

describe("the route a request is counted under in /metrics", () => {
  const patternOf = routePatterns(
    resourceRouteBuild(
      () => new Response(""),
      ["dashboard/recipient/:id/edit", "record/:token", "locales/:lng/:ns", "media/answer/:answerId", "*"],
    ),
  );
  const route = (path: string, status: number, staticFile = false) => metricsRoute(path, status, staticFile, patternOf);

  it("is the matched route's pattern, one route for static files, pages not found and each upload", () => {
    expect(route("/dashboard/recipient/0b6f6a8e-8c1d-4a59-9d7e-2f1e0c7d9a11/edit", 200)).toBe(
      "/dashboard/recipient/:id/edit",
    );
    expect(route("/record/:token", 200)).toBe("/record/:token");
    expect(route("/locales/hi/common", 200)).toBe("/locales/:lng/:ns");
    expect(route("/media/answer/42", 206)).toBe("/media/answer/:answerId");
    expect(route("/assets/entry.client-abc123.js", 200, true)).toBe("(static)");
    expect(route("/wp-login.php", 404, true)).toBe("(not found)");
    expect(route("/healthz", 200, true)).toBe("/healthz");
    expect(route("/uploads/4f1c0a", 204)).toBe("/uploads/:id");
    expect(route("/uploads/4f1c0a/and/more", 403)).toBe("/uploads/:id");
    // A refused post to a made-up path is not a series of its own.
    expect(route("/some/made-up/path-1", 403)).toBe("/*");
  });
});
