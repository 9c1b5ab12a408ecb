import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// scripts/complete-lockfile.mjs (`npm run lockfile`; `--check` in .ci/run) on a small lock file in
// which one platform build of a package is missing, as npm writes it against our registry.

const script = path.resolve(__dirname, "../../scripts/complete-lockfile.mjs");
const folder = mkdtempSync(path.join(os.tmpdir(), "heirloom-lockfile-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const lock = {
  name: "x",
  lockfileVersion: 3,
  requires: true,
  packages: {
    "": { name: "x" },
    "node_modules/@tailwindcss/oxide": {
      version: "4.3.5",
      dev: true,
      optionalDependencies: { "@tailwindcss/oxide-linux-x64-gnu": "4.3.5", "@tailwindcss/oxide-darwin-arm64": "4.3.5" },
    },
    "node_modules/@tailwindcss/oxide-linux-x64-gnu": {
      version: "4.3.5",
      cpu: ["x64"],
      dev: true,
      libc: ["glibc"],
      optional: true,
      os: ["linux"],
    },
  },
};

const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: folder, encoding: "utf8" });

describe("completing package-lock.json", () => {
  it("--check fails naming the missing platform build and changes nothing; without it the entry is added", () => {
    const original = JSON.stringify(lock, null, 2) + "\n";
    writeFileSync(path.join(folder, "package-lock.json"), original);

    const check = run("--check");
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("@tailwindcss/oxide-darwin-arm64@4.3.5");
    expect(check.stderr).toContain("npm run lockfile");
    expect(readFileSync(path.join(folder, "package-lock.json"), "utf8")).toBe(original);

    expect(run().status).toBe(0);
    const completed = JSON.parse(readFileSync(path.join(folder, "package-lock.json"), "utf8"));
    expect(completed.packages["node_modules/@tailwindcss/oxide-darwin-arm64"]).toEqual({
      version: "4.3.5",
      cpu: ["arm64"],
      dev: true,
      optional: true,
      os: ["darwin"],
    });
    expect(run("--check").status).toBe(0);
  });

  it("the committed lock file is complete", () => {
    const check = spawnSync(process.execPath, [script, "--check"], {
      cwd: path.resolve(__dirname, "../.."),
      encoding: "utf8",
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});
