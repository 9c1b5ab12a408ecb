import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { i18nAlias } from "./app/i18n/alias.ts";

const testRoots = ["app", "db", "jobs", "server", "tests/integration"];

/** Files that serve or read the production build (build/): their project builds first when needed. */
const needsBuild = [
  "app/routes/capability-pages.test.ts", // the record page names build/standalone-scripts.json's bundle
  "tests/integration/{http,old-browsers,metrics,uploads,audio-formats,mystories-uploads,early-refusal}.test.ts", // serveBuild
];

/**
 * Files that replace a module with `vi.mock`: they run in a fork of their own, as every file did
 * before. The others share their fork's loaded modules (`isolate: false`), which took the import
 * cost from 165 s to a few seconds per fork (decision 051); a mock there would leak into the next file.
 */
const mocking = testRoots
  .flatMap((root) => readdirSync(root, { recursive: true, encoding: "utf8" }).map((file) => path.join(root, file)))
  .filter((file) => /\.test\.tsx?$/.test(file) && readFileSync(file, "utf8").includes("vi.mock("));

export default defineConfig({
  // "react-i18next" is the lite translator here too, as in the builds (decision 034).
  resolve: { tsconfigPaths: true, alias: i18nAlias },
  test: {
    globalSetup: ["tests/setup/global-database.ts"],
    setupFiles: ["tests/setup/own-tmpdir.ts", "tests/setup/fail-on-console-error.ts"],
    pool: "forks",
    isolate: false,
    // Vitest's default is one fork per core minus one: ONE on a 2-core machine, which left the second
    // core idle while each file waited on PostgreSQL. Every file has its own database (tests/db.ts).
    maxWorkers: Number(process.env.VITEST_WORKERS ?? availableParallelism()),
    // A guard against hangs, not a speed check: tests that boot a server, seed or run the speech
    // engine at nice 19 took 20–50 s when two forks shared a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: testRoots.map((root) => `${root}/**/*.test.{ts,tsx}`),
          exclude: [...configDefaults.exclude, ...needsBuild, ...mocking],
        },
      },
      { extends: true, test: { name: "mocking", include: mocking, isolate: true } },
      { extends: true, test: { name: "built", include: needsBuild, globalSetup: ["tests/setup/global-build.ts"] } },
    ],
  },
});
