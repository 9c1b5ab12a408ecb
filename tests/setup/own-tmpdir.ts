import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

// Each test file gets its own temporary folder (os.tmpdir() reads TMPDIR, and spawned processes
// inherit it): with a fork per core, a file that checks it left no temporary files behind would
// otherwise see another file's uploads in flight.
// The machine's TMPDIR, not the previous file's (a fork that runs several files keeps process.env).
const machineTmp = (process.env.HEIRLOOM_MACHINE_TMPDIR ??= os.tmpdir());
const own = mkdtempSync(path.join(machineTmp, "heirloom-vitest-"));
// Passable, not listable, by other users: as root, embedded PostgreSQL runs as the "postgres" user,
// which must reach a data folder made inside (tests that boot the server; mkdtemp makes 0700).
chmodSync(own, 0o711);
process.env.TMPDIR = own;
afterAll(() => rmSync(own, { recursive: true, force: true }));
