import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["{app,db,jobs,server,tests/integration}/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/setup/global-database.ts"],
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
