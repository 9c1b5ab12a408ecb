// The machine's Heirloom cache, shared by every clone on it (decisions 051 and 060): tsc's, ESLint's
// and Prettier's caches here, the speech engine's build (scripts/speech-engine-build.ts) and the
// image's layers (scripts/test-image/podman-env.sh), which find the same folder the same way: the
// image's build stage copies the engine's script alone. HEIRLOOM_CACHE_DIR moves it; `off` keeps each
// clone to itself.
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

/** The cache's root folder, or null when HEIRLOOM_CACHE_DIR=off. */
export function machineCacheRoot(env = process.env) {
  const root = env.HEIRLOOM_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "heirloom");
  return root === "off" ? null : root;
}

/** Where the checks keep their caches in a clone (package.json's lint and format scripts, tsconfig.json). */
export const CHECK_CACHES = ["tsbuildinfo", "eslint-cache", "prettier-cache"];
const LOCAL = path.join("node_modules", ".cache", "heirloom");
/**
 * ESLint's and Prettier's caches name each file by its absolute path (tsc's by a relative one): kept
 * with the clone's folder as this mark, and given the restoring clone's, they serve a clone anywhere.
 */
const ABSOLUTE = new Set(["eslint-cache", "prettier-cache"]);
const CLONE_MARK = "<clone>";

/** Copies a cache file, with the clone folder `from` written as `to` in its file names. */
function copyCache(name, source, target, from, to) {
  if (!ABSOLUTE.has(name)) return cpSync(source, target);
  const text = readFileSync(source, "utf8");
  writeFileSync(
    target,
    text.replaceAll(JSON.stringify(`${from}/`).slice(0, -1), JSON.stringify(`${to}/`).slice(0, -1)),
  );
}

/**
 * What the checks' results depend on besides the files they check, which each tool hashes itself:
 * the tools' versions (the lock file), their settings and our lint rules, and Node's version.
 */
const KEY_FILES = ["package-lock.json", "tsconfig.json", "eslint.config.js", ".prettierrc.json", ".prettierignore"];
const KEY_FOLDERS = ["lint"];
const KEPT_KEYS = 4;

export function checkCacheKey(clone) {
  const hash = createHash("sha256").update(process.version);
  const files = [
    ...KEY_FILES,
    ...KEY_FOLDERS.flatMap((folder) =>
      existsSync(path.join(clone, folder))
        ? readdirSync(path.join(clone, folder), { recursive: true, withFileTypes: true })
            .filter((entry) => entry.isFile())
            .map((entry) => path.relative(clone, path.join(entry.parentPath, entry.name)))
        : [],
    ),
  ].sort();
  for (const file of files) {
    const full = path.join(clone, file);
    hash.update(`\0${file}\0`);
    if (existsSync(full)) hash.update(readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

function checksDir(clone, env) {
  const root = machineCacheRoot(env);
  return root && path.join(root, "checks", checkCacheKey(clone));
}

/**
 * Before the checks: each cache the clone lacks is copied from the machine's, so a fresh clone's tsc,
 * ESLint and Prettier check only the files that differ from the last clone that passed. A cache the
 * clone has is its own, newer one, and stays.
 */
export function restoreCheckCaches(clone, env = process.env) {
  const saved = checksDir(clone, env);
  if (!saved || !existsSync(saved)) return [];
  const restored = [];
  for (const name of CHECK_CACHES) {
    const local = path.join(clone, LOCAL, name);
    if (existsSync(local) || !existsSync(path.join(saved, name))) continue;
    mkdirSync(path.dirname(local), { recursive: true });
    copyCache(name, path.join(saved, name), local, CLONE_MARK, path.resolve(clone));
    restored.push(name);
  }
  return restored;
}

/**
 * After the checks have passed: the clone's caches become the machine's for this key (staged, then
 * renamed, so a clone that restores meanwhile sees the old set or the new one, never half). Only the
 * newest few keys are kept.
 */
export function saveCheckCaches(clone, env = process.env) {
  const target = checksDir(clone, env);
  if (!target) return [];
  const present = CHECK_CACHES.filter((name) => existsSync(path.join(clone, LOCAL, name)));
  if (present.length === 0) return [];
  const staging = `${target}.staging-${process.pid}`;
  mkdirSync(staging, { recursive: true });
  for (const name of present)
    copyCache(name, path.join(clone, LOCAL, name), path.join(staging, name), path.resolve(clone), CLONE_MARK);
  const old = `${target}.old-${process.pid}`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
  pruneKeys(path.dirname(target));
  return present;
}

function pruneKeys(folder) {
  const keys = readdirSync(folder)
    .filter((name) => /^[0-9a-f]{16}$/.test(name))
    .map((name) => ({ name, time: statSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { name } of keys.slice(KEPT_KEYS)) rmSync(path.join(folder, name), { recursive: true, force: true });
}
