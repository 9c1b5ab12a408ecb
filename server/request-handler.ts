import type { Socket } from "node:net";
import { createReadableStreamFromReadable } from "@react-router/node";
import type express from "express";
import { createRequestHandler as createReactRouterHandler, type ServerBuild } from "react-router";

/**
 * @react-router/express's request handler, with one change: response bodies are written by
 * `writeBody` below. The adapter's own writer (`writeReadableStreamToWritable` in
 * @react-router/node 7.18) keeps every chunk it sent until the response ends (upstream
 * remix-run/react-router#15247, fixed only for React Router 8.4), flushes compression after every chunk, and
 * writes chunk by chunk. Requests are built exactly as the adapter builds them (a test holds the
 * two to the same answers). Decisions 023 and 030; `npm run bench:export` measures it.
 */
export function createRequestHandler<Context>({
  build,
  getLoadContext,
  mode,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (req: express.Request, res: express.Response) => Context;
  mode: string;
}): express.RequestHandler {
  const handleRequest = createReactRouterHandler(build, mode);
  return async (req, res, next) => {
    try {
      const request = createRequest(req, res);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- React Router's context type is the app's
      const response = await handleRequest(request, getLoadContext(req, res) as any);
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function createHeaders(requestHeaders: express.Request["headers"]) {
  const headers = new Headers();
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

/**
 * The URL React Router is given for a request, built as the adapter builds it, or null when the
 * request names no host a URL can hold: no Host at all (HTTP/1.0), an empty one, or one such as
 * `a b`, `[zz` or `a:99999`. server/http.ts answers those 400 before anything reads the Host.
 */
export function requestUrl(req: express.Request): URL | null {
  const [, forwardedPort] = req.app?.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const forwarded = Number.parseInt(forwardedPort, 10);
  const own = Number.parseInt(hostPort, 10);
  const port = Number.isSafeInteger(forwarded) ? forwarded : Number.isSafeInteger(own) ? own : "";
  // Express leaves hostname undefined when there is no Host (or it is empty).
  if (!req.hostname) return null;
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  try {
    return new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  } catch {
    return null;
  }
}

function createRequest(req: express.Request, res: express.Response) {
  const url = requestUrl(req);
  if (!url) throw new Error("a request without a usable Host reached React Router");
  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: createHeaders(req.headers),
    signal: controller.signal,
  };
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

const isClosed = (res: express.Response) => res.destroyed || res.writableEnded;

async function sendResponse(res: express.Response, response: Response) {
  if (isClosed(res)) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // A 413 is answered before its body is read. Kept alive, the connection would have Node read and
  // drop the rest (a 20 MB photo, for a minute on a phone) before the browser shows the answer;
  // closed, the browser stops sending and shows it at once (decision 084).
  if (response.status === 413) res.setHeader("Connection", "close");
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  await writeBody(response.body, res);
}

/**
 * Writes the body chunk by chunk, waiting for "drain" when the socket is full, so it never holds
 * more than the socket's buffers. Chunks that arrive together (a rendered stretch of HTML comes as
 * many small ones) go out as one write: the socket itself is corked until the body makes us wait,
 * then compression is flushed and the socket uncorked, so streamed HTML still arrives as it renders.
 * (Not `res.cork()`: on Node 22 that buffers chunked bodies in the response, answers `false` from
 * write() with no "drain" to follow, and uncorks into one socket write per piece; decision 030.)
 * A client that goes away cancels the body; a body that fails ends the connection at once.
 */
export async function writeBody(body: ReadableStream<Uint8Array>, res: express.Response) {
  const reader = body.getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  res.on("close", onClose);
  let corked: Socket | null = null;
  const flush = () => {
    const socket = corked;
    if (!socket) return;
    corked = null;
    if (!isClosed(res)) (res as unknown as { flush?: () => void }).flush?.();
    socket.uncork();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (isClosed(res)) return;
      // A pipelined response waits for its socket: Node holds its writes until then.
      if (!corked && res.socket) {
        corked = res.socket;
        corked.cork();
        setImmediate(flush);
      }
      if (!res.write(value)) {
        flush();
        await drained(res);
      }
    }
    // Uncorked before ending, so the terminator follows the last chunk.
    flush();
    if (!isClosed(res)) res.end();
  } catch (error) {
    flush();
    // The client went away: nothing to answer.
    if (isClosed(res)) return;
    // Headers are out, so no error page can follow: a client must not wait for bytes that never come.
    res.destroy();
    void reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    flush();
    res.off("close", onClose);
  }
}

function drained(res: express.Response) {
  return new Promise<void>((resolve) => {
    // The compression middleware hands "drain" listeners to its zlib stream (res.on returns that
    // stream), so the listener is removed from whatever took it.
    let drainSource: NodeJS.EventEmitter = res;
    const done = () => {
      drainSource.off("drain", done);
      res.off("close", done);
      resolve();
    };
    drainSource = res.on("drain", done);
    res.on("close", done);
  });
}
