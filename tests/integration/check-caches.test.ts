// The checks' machine cache (decision 060): a fresh clone starts from the caches of the last clone
// that passed, under a key of everything besides the checked files that their results depend on.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkCacheKey, restoreCheckCaches, saveCheckCaches } from "../../scripts/machine-cache.mjs";

const LOCAL = path.join("node_modules", ".cache", "heirloom");

/** A clone with the files the key reads, and caches as the checks leave them when `withCaches`. */
function clone(withCaches: boolean) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clone-"));
  for (const file of ["package-lock.json", "tsconfig.json", "eslint.config.js", ".prettierrc.json"])
    cpSync(file, path.join(dir, file));
  cpSync("lint", path.join(dir, "lint"), { recursive: true });
  if (withCaches) {
    mkdirSync(path.join(dir, LOCAL), { recursive: true });
    writeFileSync(path.join(dir, LOCAL, "tsbuildinfo"), '{"program":"checked"}');
    writeFileSync(path.join(dir, LOCAL, "eslint-cache"), lintedIn(dir));
  }
  return dir;
}

/** ESLint's cache as it names files: by absolute path. */
const lintedIn = (clone: string) => JSON.stringify([{ [`${clone}/app/root.tsx`]: "1" }, { size: 1 }]);

describe("the checks' machine cache", () => {
  it("gives a fresh clone the caches the last passing clone saved", () => {
    const env = { HEIRLOOM_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), "machine-")) };
    const first = clone(true);
    expect(saveCheckCaches(first, env)).toEqual(["tsbuildinfo", "eslint-cache"]);

    // Another folder: ESLint's entries name this clone's files.
    const fresh = clone(false);
    expect(restoreCheckCaches(fresh, env)).toEqual(["tsbuildinfo", "eslint-cache"]);
    expect(readFileSync(path.join(fresh, LOCAL, "tsbuildinfo"), "utf8")).toBe('{"program":"checked"}');
    expect(readFileSync(path.join(fresh, LOCAL, "eslint-cache"), "utf8")).toBe(lintedIn(fresh));
  });

  it("leaves a clone's own caches alone", () => {
    const env = { HEIRLOOM_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), "machine-")) };
    saveCheckCaches(clone(true), env);
    const own = clone(false);
    mkdirSync(path.join(own, LOCAL), { recursive: true });
    writeFileSync(path.join(own, LOCAL, "tsbuildinfo"), "mine");
    expect(restoreCheckCaches(own, env)).toEqual(["eslint-cache"]);
    expect(readFileSync(path.join(own, LOCAL, "tsbuildinfo"), "utf8")).toBe("mine");
  });

  it("restores nothing when a tool, its settings or a lint rule differ", () => {
    const env = { HEIRLOOM_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), "machine-")) };
    const first = clone(true);
    saveCheckCaches(first, env);
    for (const change of ["package-lock.json", "eslint.config.js", "tsconfig.json", "lint/no-schema-in-browser.js"]) {
      const fresh = clone(false);
      writeFileSync(path.join(fresh, change), `${readFileSync(path.join(fresh, change), "utf8")}\n// changed\n`);
      expect(checkCacheKey(fresh), change).not.toBe(checkCacheKey(first));
      expect(restoreCheckCaches(fresh, env), change).toEqual([]);
    }
    const added = clone(false);
    writeFileSync(path.join(added, "lint", "new-rule.js"), "export {};\n");
    expect(restoreCheckCaches(added, env)).toEqual([]);
    // A rule kept in a folder of its own counts too.
    const nested = clone(false);
    mkdirSync(path.join(nested, "lint", "rules"));
    writeFileSync(path.join(nested, "lint", "rules", "another.js"), "export {};\n");
    expect(restoreCheckCaches(nested, env)).toEqual([]);
  });

  it("keeps the newest four keys, and nothing at all when turned off", () => {
    const env = { HEIRLOOM_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), "machine-")) };
    for (let version = 0; version < 6; version++) {
      const each = clone(true);
      writeFileSync(path.join(each, "tsconfig.json"), `{"v":${version}}`);
      saveCheckCaches(each, env);
    }
    expect(readdirSync(path.join(env.HEIRLOOM_CACHE_DIR, "checks"))).toHaveLength(4);

    const off = { HEIRLOOM_CACHE_DIR: "off" };
    expect(saveCheckCaches(clone(true), off)).toEqual([]);
    expect(restoreCheckCaches(clone(false), off)).toEqual([]);
    expect(existsSync("off")).toBe(false);
  });
});
