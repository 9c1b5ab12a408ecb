import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler as createStockHandler } from "@react-router/express";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceRouteBuild } from "../tests/route-build";
import { createRequestHandler } from "./request-handler";

// request-handler.ts builds each Request as @react-router/express 7.18 does. Both run here on the same
// React Router build, behind and not behind a trusted proxy; what the route sees must be the same
// (and, for the cases that matter to us, what we expect).

type Seen = { url: string; method: string; headers: [string, string][]; body: string | null };

const seenBy = (request: Request, body: string | null): Seen => ({
  url: request.url,
  method: request.method,
  headers: [...request.headers.entries()],
  body,
});

const aborts: string[] = [];
const build = resourceRouteBuild(async ({ request }) => {
  const path = new URL(request.url).pathname;
  if (path === "/wait") {
    // Answers only when the client has gone away.
    await new Promise((resolve) => request.signal.addEventListener("abort", resolve));
    aborts.push(request.headers.get("x-adapter")!);
    return new Response(null, { status: 204 });
  }
  const body = request.body ? await request.text() : null;
  // In a header, so that HEAD shows it too.
  return new Response("seen", { headers: { "X-Seen": encodeURIComponent(JSON.stringify(seenBy(request, body))) } });
});

const servers: http.Server[] = [];
const ports: Record<string, number> = {};

beforeAll(async () => {
  for (const adapter of ["ours", "stock"])
    for (const trustProxy of [false, true]) {
      const app = express();
      if (trustProxy) app.set("trust proxy", 1);
      app.all(
        "*",
        adapter === "ours"
          ? createRequestHandler({ build, mode: "production", getLoadContext: () => ({}) })
          : createStockHandler({ build, mode: "production" }),
      );
      const server = await new Promise<http.Server>((resolve) => {
        const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
      });
      servers.push(server);
      ports[`${adapter} ${trustProxy}`] = (server.address() as AddressInfo).port;
    }
});
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

function send(
  port: number,
  options: { method?: string; path?: string; headers?: http.OutgoingHttpHeaders; body?: string },
): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path ?? "/page",
        // Node's client frames a DELETE's body only when told its length.
        headers: {
          // One Host for both servers, so their answers compare whole.
          Host: "family.example:3000",
          ...options.headers,
          ...(options.body && { "Content-Length": Buffer.byteLength(options.body) }),
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk));
        response.on("end", () => {
          const header = response.headers["x-seen"];
          if (typeof header === "string") resolve(JSON.parse(decodeURIComponent(header)));
          else reject(new Error(`the route did not answer: ${response.statusCode} ${text}`));
        });
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** What our adapter's route sees, after checking that the stock adapter's sees the same. */
async function seen(trustProxy: boolean, options: Parameters<typeof send>[1]) {
  const [ours, stock] = await Promise.all([
    send(ports[`ours ${trustProxy}`], options),
    send(ports[`stock ${trustProxy}`], options),
  ]);
  expect(ours).toEqual(stock);
  return ours;
}

describe("the Request a route sees", () => {
  it("takes the host and port from Host, and ignores X-Forwarded-* unless the proxy is trusted", async () => {
    const forwarded = {
      Host: "127.0.0.1:8080",
      "X-Forwarded-Host": "heirloom.example:8443",
      "X-Forwarded-Proto": "https",
    };
    expect((await seen(false, { path: "/a/b?c=1", headers: { Host: "family.example:3000" } })).url).toBe(
      "http://family.example:3000/a/b?c=1",
    );
    expect((await seen(false, { headers: { Host: "family.example" } })).url).toBe("http://family.example/page");
    expect((await seen(false, { headers: forwarded })).url).toBe("http://127.0.0.1:8080/page");
    expect((await seen(true, { headers: forwarded })).url).toBe("https://heirloom.example:8443/page");
  });

  it("matches the adapter on odd hosts and forwarded headers", async () => {
    for (const trustProxy of [false, true])
      for (const headers of [
        { Host: "family.example:notaport" },
        { Host: "user@evil.example:3000" },
        { Host: "[::1]:3000" },
        { Host: "127.0.0.1:3000", "X-Forwarded-Host": "heirloom.example" },
        { Host: "127.0.0.1:3000", "X-Forwarded-Host": "a.example:444, b.example:555", "X-Forwarded-Proto": "https" },
      ])
        await seen(trustProxy, { path: "/x/%20y?q=a%26b#frag", headers });
  });

  it("passes the method, every header and the body", async () => {
    const form = "name=Asha&note=%E0%A4%A8%E0%A4%AE%E0%A4%B8%E0%A5%8D%E0%A4%A4%E0%A5%87";
    const post = await seen(false, {
      method: "POST",
      path: "/dashboard?tab=queue",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: ["a=1", "b=2"], "X-Many": ["1", "2"] },
      body: form,
    });
    expect(post).toMatchObject({ method: "POST", body: form });
    expect(post.headers).toEqual(
      expect.arrayContaining([
        ["content-type", "application/x-www-form-urlencoded"],
        ["cookie", "a=1; b=2"],
        ["x-many", "1, 2"],
      ]),
    );
    for (const method of ["PUT", "PATCH", "DELETE"])
      expect(await seen(false, { method, body: "x" })).toMatchObject({ method, body: "x" });
    expect(await seen(false, { method: "DELETE" })).toMatchObject({ method: "DELETE", body: "" });
    expect(await seen(false, { method: "HEAD" })).toMatchObject({ method: "HEAD", body: null });
    expect(await seen(false, { method: "GET" })).toMatchObject({ method: "GET", body: null });
  });

  it("is aborted when the client goes away before the answer", async () => {
    for (const adapter of ["ours", "stock"]) {
      const request = http.get({
        host: "127.0.0.1",
        port: ports[`${adapter} false`],
        path: "/wait",
        headers: { "X-Adapter": adapter },
      });
      request.on("error", () => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
      request.destroy();
    }
    for (let i = 0; i < 200 && aborts.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborts.sort()).toEqual(["ours", "stock"]);
  });
});
