import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

// Each test file gets its own temporary folder (os.tmpdir() reads TMPDIR, and spawned processes
// inherit it): with a fork per core, a file that checks it left no temporary files behind would
// otherwise see another file's uploads in flight.
const own = mkdtempSync(path.join(os.tmpdir(), "heirloom-vitest-"));
process.env.TMPDIR = own;
afterAll(() => rmSync(own, { recursive: true, force: true }));
