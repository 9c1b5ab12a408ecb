import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { audioDurationMs } from "./audio-duration.server";

const folder = mkdtempSync(path.join(os.tmpdir(), "heirloom-duration-"));
const file = (name: string, bytes: Buffer) => {
  const target = path.join(folder, name);
  writeFileSync(target, bytes);
  return target;
};

// EBML pieces: an element is its id, a size (1-byte vint: 0x80 | n), then its data.
const element = (id: number[], data: Buffer) =>
  Buffer.concat([Buffer.from(id), Buffer.from([0x80 | data.length]), data]);
const unknownSizeSegment = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
const float64 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value);
  return bytes;
};
const info = (...children: Buffer[]) => {
  const data = Buffer.concat(children);
  return Buffer.concat([Buffer.from([0x15, 0x49, 0xa9, 0x66, 0x80 | data.length]), data]);
};
const timecodeScale = (ns: number) =>
  element([0x2a, 0xd7, 0xb1], Buffer.from([(ns >> 16) & 0xff, (ns >> 8) & 0xff, ns & 0xff]));

describe("recording durations, read from the file", () => {
  it("measures a browser's MediaRecorder WebM (no duration in it) from its last block", async () => {
    const ms = await audioDurationMs(path.resolve("tests/fixtures/recording-3s.webm"), "audio/webm");
    expect(ms).toBeGreaterThan(2800);
    expect(ms).toBeLessThan(3200);
  });

  it("refuses made-up clocks and durations instead of trusting them", async () => {
    const nan = file(
      "nan.webm",
      Buffer.concat([unknownSizeSegment, info(timecodeScale(1_000_000), element([0x44, 0x89], float64(Number.NaN)))]),
    );
    const negative = file(
      "negative.webm",
      Buffer.concat([unknownSizeSegment, info(timecodeScale(1_000_000), element([0x44, 0x89], float64(-5000)))]),
    );
    const tinyClock = file(
      "tiny-clock.webm",
      Buffer.concat([unknownSizeSegment, info(timecodeScale(1), element([0x44, 0x89], float64(300_000_000)))]),
    );
    for (const target of [nan, negative, tinyClock]) expect(await audioDurationMs(target, "audio/webm")).toBeNull();
  });

  it("gives up on a file of endless filler elements rather than walking it", async () => {
    const voids = Buffer.alloc(2 * 300_000);
    for (let i = 0; i < voids.length; i += 2) voids.set([0xec, 0x80], i);
    // A real block after the filler: walked to the end, the file would measure about 1 s.
    const cluster = Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const block = element([0xa3], Buffer.from([0x81, 0x03, 0xe8, 0x80, 0x00]));
    const clusterStart = element([0xe7], Buffer.from([0x00]));
    const honest = file("honest.webm", Buffer.concat([unknownSizeSegment, cluster, clusterStart, block]));
    expect(await audioDurationMs(honest, "audio/webm")).toBe(1020);
    const padded = file("filler.webm", Buffer.concat([unknownSizeSegment, voids, cluster, clusterStart, block]));
    expect(await audioDurationMs(padded, "audio/webm")).toBeNull();
  });
});
