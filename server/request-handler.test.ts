import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { resourceRouteBuild } from "../tests/route-build";
import { createRequestHandler, writeBody } from "./request-handler";

// The body writer that replaces @react-router/node's (see request-handler.ts): it waits for the
// socket (back-pressure), delivers every byte, cancels the body when the client goes away, ends
// the connection when the body fails, and keeps nothing it has sent.

const CHUNK = 64 * 1024;
const CHUNKS = 400; // 25 MB: far more than the socket and the client's buffers hold

let server: http.Server | undefined;
afterEach(
  () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

function serveBody() {
  const state = { pulled: 0, cancelled: false, finished: false };
  const app = express();
  app.get("/", async (_req, res) => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.pulled === CHUNKS) return controller.close();
        state.pulled++;
        controller.enqueue(new Uint8Array(CHUNK).fill(state.pulled % 251));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    res.setHeader("Content-Type", "application/octet-stream");
    await writeBody(body, res);
    state.finished = true;
  });
  return new Promise<{ port: number; state: typeof state }>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve({ port: (server!.address() as AddressInfo).port, state }));
  });
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe("writeBody", () => {
  it("reads the body only as fast as the client takes it, and delivers every byte", async () => {
    const { port, state } = await serveBody();
    const response = await new Promise<http.IncomingMessage>((resolve) =>
      http.get({ port, host: "127.0.0.1", path: "/" }, resolve),
    );
    response.pause();
    // The client reads nothing: the writer stops once the socket's buffers are full.
    let previous = -1;
    await waitFor(() => {
      const still = state.pulled === previous;
      previous = state.pulled;
      return still && state.pulled > 0;
    });
    expect(state.pulled).toBeLessThan(CHUNKS / 2);
    let received = 0;
    response.on("data", (chunk: Buffer) => (received += chunk.length));
    response.resume();
    await new Promise((resolve) => response.on("end", resolve));
    expect(received).toBe(CHUNK * CHUNKS);
    expect(state).toMatchObject({ pulled: CHUNKS, cancelled: false });
  });

  it("cancels the body when the client goes away", async () => {
    const { port, state } = await serveBody();
    const request = http.get({ port, host: "127.0.0.1", path: "/" }, (response) => {
      response.once("data", () => request.destroy());
    });
    request.on("error", () => {});
    await waitFor(() => state.cancelled && state.finished);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(CHUNKS);
  });

  it.each([
    ["plain", false],
    ["compressed", true],
  ])(
    "sends chunks that arrive together as one write, and each stretch as soon as the body waits (%s)",
    async (_, compress) => {
      let release = () => {};
      const writes = { count: 0 };
      const app = express();
      if (compress) app.use(compression());
      app.get("/", async (req, res) => {
        // Every write that reaches the socket, one writev for corked chunks.
        const socket = req.socket as unknown as Record<"_write" | "_writev", (...args: unknown[]) => unknown>;
        for (const method of ["_write", "_writev"] as const) {
          const original = socket[method].bind(socket);
          socket[method] = (...args: unknown[]) => {
            writes.count++;
            return original(...args);
          };
        }
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            // A rendered stretch of HTML: many small chunks at once, then a wait (a slow query).
            for (let i = 0; i < 50; i++) controller.enqueue(new TextEncoder().encode(`<p>${i}</p>`));
            await new Promise<void>((resolve) => (release = resolve));
            controller.enqueue(new TextEncoder().encode("<p>end</p>"));
            controller.close();
          },
        });
        res.setHeader("Content-Type", "text/html");
        await writeBody(body, res);
      });
      await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", resolve)));
      const port = (server!.address() as AddressInfo).port;
      const response = await new Promise<http.IncomingMessage>((resolve) =>
        http.get(
          { port, host: "127.0.0.1", path: "/", headers: { "Accept-Encoding": compress ? "gzip" : "identity" } },
          resolve,
        ),
      );
      const stream = compress ? response.pipe(zlib.createGunzip()) : response;
      let text = "";
      stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
      // The first stretch arrives while the body is still waiting.
      await waitFor(() => text.includes("<p>49</p>"));
      expect(text).toContain("<p>49</p>");
      expect(text).not.toContain("end");
      const firstStretch = writes.count;
      // Headers and the 50 chunks: a few writes, not one per chunk.
      expect(firstStretch).toBeLessThanOrEqual(3);
      release();
      await new Promise((resolve) => stream.on("end", resolve));
      expect(text).toBe(Array.from({ length: 50 }, (_, i) => `<p>${i}</p>`).join("") + "<p>end</p>");
    },
  );
});

describe("writeBody on a keep-alive connection", () => {
  it("ends a body that arrives at once whole, twice over one connection, without Accept-Encoding", async () => {
    // A page's HTML arrives as many chunks together; ended while still corked, Node 22 cut it at
    // 2,048 bytes and wrote the rest after the chunked terminator, breaking the connection.
    const page = Array.from({ length: 400 }, (_, i) => `<p>${i}</p>`);
    const app = express();
    app.get("/", async (_req, res) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of page) controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      });
      res.setHeader("Content-Type", "text/html");
      await writeBody(body, res);
    });
    await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", resolve)));
    const port = (server!.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ text: string; socket: unknown }>((resolve, reject) => {
        const request = http.get({ port, host: "127.0.0.1", path: "/", agent }, (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve({ text, socket: request.socket }));
          response.on("error", reject);
        });
        request.on("error", reject);
      });
    const first = await get();
    const second = await get();
    agent.destroy();
    expect(page.join("").length).toBeGreaterThan(2048);
    expect(first.text).toBe(page.join(""));
    expect(second.text).toBe(page.join(""));
    expect(second.socket).toBe(first.socket);
  });
});

describe("a body that fails mid-stream", () => {
  it.each([
    ["plain", false],
    ["compressed", true],
  ])("ends the connection at once, and the failure reaches the error handler (%s)", async (_, compress) => {
    const failures: unknown[] = [];
    const build = resourceRouteBuild(() => {
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          controller.enqueue(new TextEncoder().encode("<p>the first part</p>"));
          await new Promise((resolve) => setTimeout(resolve, 20));
          controller.error(new Error("the storage went away"));
        },
      });
      return new Response(body, { headers: { "Content-Type": "text/html" } });
    });
    const app = express();
    if (compress) app.use(compression());
    app.all("*", createRequestHandler({ build, mode: "production", getLoadContext: () => ({}) }));
    app.use((error: unknown, _req: express.Request, _res: express.Response, _next: express.NextFunction) => {
      failures.push(error);
    });
    await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", resolve)));
    const port = (server!.address() as AddressInfo).port;
    const outcome = await new Promise<{ status?: number; complete: boolean } | "still open after 10 s">((resolve) => {
      // A stuck connection never closes; 10 s only keeps a loaded machine from failing a healthy one.
      const wait = setTimeout(() => resolve("still open after 10 s"), 10_000);
      const headers = { "Accept-Encoding": compress ? "gzip" : "identity" };
      const request = http.get({ port, host: "127.0.0.1", path: "/export", headers }, (response) => {
        response.resume();
        response.on("error", () => {});
        response.on("close", () => {
          clearTimeout(wait);
          resolve({ status: response.statusCode, complete: response.complete });
        });
      });
      request.on("error", () => {});
    });
    // The client saw the headers, then the connection end without the body's end.
    expect(outcome).toEqual({ status: 200, complete: false });
    await waitFor(() => failures.length > 0);
    expect(failures).toEqual([expect.objectContaining({ message: "the storage went away" })]);
  });
});

describe("memory", () => {
  const retention = async (writer: "ours" | "stock", megabytes: number) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--expose-gc",
        "--single-threaded-gc",
        "--import",
        "tsx",
        "tests/support/stream-retention.ts",
        writer,
        `${megabytes}`,
      ],
      { timeout: 110_000 },
    );
    return JSON.parse(stdout) as { received: number; heldMB: number };
  };

  it("holds less than 16 MB while streaming a 256 MB body", { timeout: 120_000 }, async () => {
    const { received, heldMB } = await retention("ours", 256);
    expect(received).toBe(256 * 1024 * 1024);
    expect(heldMB).toBeLessThan(16);
  });

  it(
    "(control) sees @react-router/node 7.18's writer keep what it sent (remix-run/react-router#15247; decision 030)",
    {
      timeout: 120_000,
    },
    async () => {
      // When this fails, the adapter's writer no longer keeps its chunks: the fork may go (decision 030).
      const { received, heldMB } = await retention("stock", 32);
      expect(received).toBe(32 * 1024 * 1024);
      expect(heldMB).toBeGreaterThan(24);
    },
  );
});
