import { spawnSync } from "node:child_process";
import { buildStaleness } from "../../scripts/build-stamp.mjs";

/**
 * The "built" vitest project's files serve build/ (tests/serve-build.ts) or read
 * build/standalone-scripts.json: build first when there is no build or a source changed since
 * (scripts/build-stamp.mjs, as `npm start` decides). `npm test` has just built, so this does nothing there.
 */
export function setup() {
  const state = buildStaleness(process.cwd()) as { fresh: boolean; reason?: string };
  if (state.fresh) return;
  console.log(`[vitest] building for the "built" project: ${state.reason}`);
  // vitest runs with NODE_ENV=test, which would make a development build (React's dev bundle: the
  // browser journeys then fail on hydration warnings); the build is the production one, as `npm test` makes.
  const run = spawnSync("npm", ["run", "build"], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (run.status !== 0) throw new Error(`npm run build failed (exit ${run.status}):\n${run.stdout}`);
}
