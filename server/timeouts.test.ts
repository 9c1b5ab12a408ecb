import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "~/services/audio-check.server";
import { applyServerTimeouts, SERVER_TIMEOUTS } from "./timeouts";

// What the web server waits for (server/timeouts.ts): the numbers against what they must allow, and
// the one property of Node's requestTimeout they lean on, at a small scale.

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Writes `text` `count` times, one every `everyMs`, then ends (unless the stream is destroyed first). */
function drip(stream: http.ServerResponse | http.ClientRequest, text: string, count: number, everyMs: number) {
  let written = 0;
  const timer = setInterval(() => {
    if (stream.destroyed) return clearInterval(timer);
    stream.write(text);
    if (++written < count) return;
    clearInterval(timer);
    stream.end();
  }, everyMs);
}

describe("the server's timeouts", () => {
  it("let the largest recording arrive at 64 kbit/s, and outlast a proxy's idle connections", () => {
    const secondsAt64kbits = (MAX_UPLOAD_BYTES * 8) / 64_000;
    expect(secondsAt64kbits * 1000).toBeLessThanOrEqual(SERVER_TIMEOUTS.requestTimeout);
    // Node's default (300 s) would cut it.
    expect(secondsAt64kbits).toBeGreaterThan(300);
    expect(SERVER_TIMEOUTS.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(SERVER_TIMEOUTS.headersTimeout).toBeGreaterThan(SERVER_TIMEOUTS.keepAliveTimeout);
    expect(SERVER_TIMEOUTS.headersTimeout).toBeLessThanOrEqual(SERVER_TIMEOUTS.requestTimeout);
  });

  it("cut a request body that takes longer than requestTimeout, never a response (exports stream for long)", async () => {
    // Scaled down, with wide margins either side so a loaded machine does not decide the outcome.
    const scaled = { headersTimeout: 1500, requestTimeout: 3000, keepAliveTimeout: 300, timeout: 20_000 };
    server = http.createServer({ connectionsCheckingInterval: 50 }, (req, res) => {
      req.resume();
      req.on("end", () => {
        // A response longer than requestTimeout.
        drip(res, ".", 30, 150);
      });
    });
    applyServerTimeouts(server, scaled);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const exchange = (bodyMs: number) =>
      new Promise<{ status?: number; text: string }>((resolve, reject) => {
        const request = http.request({ port, host: "127.0.0.1", method: "POST", headers: { "Content-Length": 10 } });
        request.on("response", (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode, text }));
        });
        request.on("error", reject);
        drip(request, "x", 10, bodyMs / 10);
      });
    expect(await exchange(100)).toEqual({ status: 200, text: ".".repeat(30) });
    expect((await exchange(9000)).status).toBe(408);
  });
});
