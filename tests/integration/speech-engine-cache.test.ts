// The machine's engine cache: a fresh clone copies a build made by another clone instead of
// compiling, and only a build made for the same flags, compiler and CPU.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { engineBuildDir, WHISPER_VERSION } from "~/services/speech-engine.server";
import { buildEngine, cmakeFlags, machineCacheDir } from "../../scripts/speech-engine-build";

/** A build in the machine cache as buildEngine leaves one (stand-in binaries: nothing runs them). */
function planted(cacheRoot: string) {
  const env = { HEIRLOOM_CACHE_DIR: cacheRoot };
  const dir = machineCacheDir("native", cmakeFlags("native"), env)!;
  mkdirSync(path.join(dir, "bin"), { recursive: true });
  for (const name of ["whisper-cli", "whisper-quantize"]) {
    writeFileSync(path.join(dir, "bin", name), `#!/bin/sh\necho ${name}\n`);
    chmodSync(path.join(dir, "bin", name), 0o755);
  }
  writeFileSync(
    path.join(dir, "build.json"),
    JSON.stringify({ version: WHISPER_VERSION, flags: cmakeFlags("native") }, null, 2),
  );
  return { env, dir };
}

describe("the speech engine's machine cache", () => {
  it("copies a cached build into a fresh clone, executable, instead of compiling", () => {
    const cacheRoot = mkdtempSync(path.join(os.tmpdir(), "engine-cache-"));
    const clone = mkdtempSync(path.join(os.tmpdir(), "clone-"));
    const { env, dir } = planted(cacheRoot);
    const outcome = buildEngine("native", { root: clone, quiet: true, env });
    expect(outcome).toEqual({ dir: engineBuildDir("native", clone), built: false, fromMachineCache: dir });
    const cli = path.join(outcome.dir, "bin", "whisper-cli");
    expect(readFileSync(cli, "utf8")).toContain("whisper-cli");
    expect(statSync(cli).mode & 0o111).toBe(0o111);
    // A second run finds the clone's own copy.
    expect(buildEngine("native", { root: clone, quiet: true, env })).toEqual({ dir: outcome.dir, built: false });
  });

  it("fills an empty machine cache from a clone that already has the build", () => {
    const { env: first } = planted(mkdtempSync(path.join(os.tmpdir(), "engine-cache-")));
    const clone = mkdtempSync(path.join(os.tmpdir(), "clone-"));
    buildEngine("native", { root: clone, quiet: true, env: first });
    const empty = { HEIRLOOM_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), "engine-cache-")) };
    expect(buildEngine("native", { root: clone, quiet: true, env: empty }).built).toBe(false);
    const other = mkdtempSync(path.join(os.tmpdir(), "clone-"));
    expect(buildEngine("native", { root: other, quiet: true, env: empty }).fromMachineCache).toBe(
      machineCacheDir("native", cmakeFlags("native"), empty),
    );
  });

  it("keys builds by flavour and flags, and can be turned off", () => {
    const env = { HEIRLOOM_CACHE_DIR: "/cache" };
    const native = machineCacheDir("native", cmakeFlags("native"), env)!;
    expect(native.startsWith(`/cache/speech/whisper-${WHISPER_VERSION}-native-`)).toBe(true);
    expect(machineCacheDir("portable", cmakeFlags("portable"), env)).not.toBe(native);
    expect(machineCacheDir("native", [...cmakeFlags("native"), "-DX=1"], env)).not.toBe(native);
    expect(machineCacheDir("native", cmakeFlags("native"), { XDG_CACHE_HOME: "/x" })!.startsWith("/x/heirloom/")).toBe(
      true,
    );
    expect(machineCacheDir("native", cmakeFlags("native"), { HEIRLOOM_CACHE_DIR: "off" })).toBeNull();
  });
});
