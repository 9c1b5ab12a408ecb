// When the production build in build/ was made, and whether a source file changed since.
// `npm run build` runs `begin` first and `end` last: `react-router build` empties build/, so the
// start time waits in node_modules/.cache until the build has succeeded, then becomes the stamp.
// The stamp holds the time the build *started*, so a file saved while it ran counts as newer.
// scripts/start.mjs reads it (buildStaleness) to build only when needed. Node built-ins only:
// it runs where the dev dependencies have been pruned.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const STAMP = "build/.build-stamp.json";
const STARTED = "node_modules/.cache/heirloom/build-started";
/** What goes into the build (the server's own code runs from source but is checked too: cheap, and safe). */
export const SOURCES = ["app", "server", "db", "jobs", "public", "locales", "vite.config.ts", "react-router.config.ts"];

/** The build's start time in ms, or null when there is no complete build. */
export function builtAt(root) {
  try {
    const startedAt = Date.parse(JSON.parse(readFileSync(path.join(root, STAMP), "utf8")).startedAt);
    return Number.isFinite(startedAt) ? startedAt : null;
  } catch {
    return null;
  }
}

/** The first source file (relative path) modified after `since`, or null. */
export function newerSource(root, since) {
  const visit = (relative) => {
    let stats;
    try {
      stats = statSync(path.join(root, relative));
    } catch {
      return null; // absent (public/ is optional) or removed while we looked
    }
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path.join(root, relative))) {
        const found = visit(path.join(relative, entry));
        if (found) return found;
      }
      return null;
    }
    return stats.mtimeMs > since ? relative : null;
  };
  for (const source of SOURCES) {
    const found = visit(source);
    if (found) return found;
  }
  return null;
}

/** Whether build/ can be served as it is; if not, why (for one log line). */
export function buildStaleness(root) {
  const startedAt = builtAt(root);
  if (startedAt === null) return { fresh: false, reason: "there is no complete build yet" };
  const changed = newerSource(root, startedAt);
  return changed ? { fresh: false, reason: `${changed} changed since the last build` } : { fresh: true };
}

export function beginBuild(root, now = Date.now()) {
  mkdirSync(path.dirname(path.join(root, STARTED)), { recursive: true });
  writeFileSync(path.join(root, STARTED), new Date(now).toISOString());
}

export function endBuild(root, now = Date.now()) {
  let startedAt = now;
  try {
    const recorded = Date.parse(readFileSync(path.join(root, STARTED), "utf8"));
    if (Number.isFinite(recorded) && recorded <= now) startedAt = recorded;
  } catch {
    // `end` without `begin` (a build run by hand): the end time is the best we know.
  }
  rmSync(path.join(root, STARTED), { force: true });
  if (!existsSync(path.join(root, "build"))) throw new Error("build-stamp: there is no build/ to stamp");
  writeFileSync(path.join(root, STAMP), JSON.stringify({ startedAt: new Date(startedAt).toISOString() }) + "\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  const step = process.argv[2];
  if (step === "begin") {
    // A failed build leaves no stamp behind: the next `npm start` builds again.
    rmSync(path.join(root, STAMP), { force: true });
    beginBuild(root);
  } else if (step === "end") endBuild(root);
  else {
    console.error("usage: node scripts/build-stamp.mjs begin|end");
    process.exit(1);
  }
}
