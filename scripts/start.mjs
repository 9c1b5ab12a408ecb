// `npm start`: serves the production build, building it first only when there is none or a source
// file changed since it was made (scripts/build-stamp.mjs). A hosting platform that builds, prunes
// the dev dependencies and then runs `npm start` therefore just serves. The server runs in this
// process (tsx's loader registered here, as `node --import tsx` would), so signals reach it
// directly and each Ctrl-C or SIGTERM arrives once, as with `npm run serve`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildStaleness } from "./build-stamp.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
process.chdir(root); // the server finds build/ and .env in the working directory

// What `npm run build` needs beyond the runtime dependencies.
const BUILD_TOOLS = ["@react-router/dev", "vite", "esbuild"];

const state = buildStaleness(root);
if (!state.fresh) {
  const missing = BUILD_TOOLS.filter((name) => !existsSync(path.join(root, "node_modules", name, "package.json")));
  if (missing.length) {
    console.error(
      `[heirloom] cannot start: a build is needed (${state.reason}) but the dev dependencies that make it (${missing.join(", ")}) are not installed; ` +
        "run `npm install` (without --omit=dev) and `npm start` again, or build before pruning them (`npm run build`)",
    );
    process.exit(1);
  }
  console.log(`[heirloom] building: ${state.reason}`);
  // npm_execpath is the npm that runs this script; plain `npm` when started by hand.
  const npm = process.env.npm_execpath
    ? [process.execPath, [process.env.npm_execpath, "run", "build"]]
    : ["npm", ["run", "build"]];
  const result = spawnSync(npm[0], npm[1], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`[heirloom] the build failed${result.error ? `: ${result.error.message}` : ""}; not starting`);
    process.exit(result.status ?? 1);
  }
}

// The same as `npm run serve`: NODE_ENV=production node --import tsx server/main.ts
process.env.NODE_ENV = "production";
await import("tsx");
await import("../server/main.ts");
