import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { i18nAlias } from "./app/i18n/alias.ts";

/** Files that serve or read the production build (build/): their project builds first when needed. */
const needsBuild = [
  "app/routes/capability-pages.test.ts", // the record page names build/standalone-scripts.json's bundle
  "tests/integration/{http,old-browsers,metrics,uploads,audio-formats,mystories-uploads}.test.ts", // serveBuild
];

export default defineConfig({
  // "react-i18next" is the lite translator here too, as in the builds (decision 034).
  resolve: { tsconfigPaths: true, alias: i18nAlias },
  test: {
    globalSetup: ["tests/setup/global-database.ts"],
    setupFiles: ["tests/setup/own-tmpdir.ts", "tests/setup/fail-on-console-error.ts"],
    pool: "forks",
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
          include: ["{app,db,jobs,server,tests/integration}/**/*.test.{ts,tsx}"],
          exclude: [...configDefaults.exclude, ...needsBuild],
        },
      },
      { extends: true, test: { name: "built", include: needsBuild, globalSetup: ["tests/setup/global-build.ts"] } },
    ],
  },
});
