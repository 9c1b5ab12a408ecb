// How much of a streamed response body a writer keeps, in a process of its own:
// `node --expose-gc --single-threaded-gc --import tsx tests/support/stream-retention.ts <ours|stock> <MB>`
// (single-threaded, so freed buffers are gone when gc() returns instead of on a sweeper's schedule).
// A body of <MB> megabytes, fresh 64 KB chunks, goes through the writer to a client in this process
// that reads and drops it. Every 16 MB the body pauses to collect garbage and measure what is still
// held (heap and array buffers, over the same measure before the request). Prints JSON.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { writeReadableStreamToWritable } from "@react-router/node";
import express from "express";
import { writeBody } from "../../server/request-handler";

const [writer = "ours", megabytes = "256"] = process.argv.slice(2);
const CHUNK = 64 * 1024;
const chunks = (Number(megabytes) * 1024 * 1024) / CHUNK;
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run with --expose-gc");

const held = () => {
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

let pulled = 0;
let mostHeld = 0;
const app = express();
app.get("/", async (_req, res) => {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled % 256 === 0) mostHeld = Math.max(mostHeld, held() - before);
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(CHUNK).fill(pulled % 251));
    },
  });
  res.setHeader("Content-Type", "application/octet-stream");
  await (writer === "stock" ? writeReadableStreamToWritable(body, res) : writeBody(body, res));
});
const server = await new Promise<http.Server>((resolve) => {
  const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
});
const before = held();
const received = await new Promise<number>((resolve, reject) => {
  const port = (server.address() as AddressInfo).port;
  http
    .get({ port, host: "127.0.0.1", path: "/" }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve(bytes));
      response.on("error", reject);
    })
    .on("error", reject);
});
server.close();
console.log(JSON.stringify({ writer, received, heldMB: Math.round((mostHeld / 1024 / 1024) * 10) / 10 }));
