import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig, devices } from "@playwright/test";
import { E2E_DATA_DIR, E2E_PG_PORT, E2E_PORT, SAME_WITHOUT_JS, SITE_ADMIN_EMAIL } from "./tests/e2e/environment";

const baseURL = `http://localhost:${E2E_PORT}`;

// Debian's Chromium when Playwright's own browser is not installed (nothing downloads browsers here):
// its headless shell first, as in the image. The desktop build in headless mode costs 3× the CPU per
// journey (browser, GPU and renderer processes: 130 s against 43 s for the same 14 tests).
const executablePath =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path));
const launchOptions = {
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // One browser per core, at least two (E2E_WORKERS to choose).
  workers: Number(process.env.E2E_WORKERS ?? Math.max(2, availableParallelism())),
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  // Journeys of a dozen screens with axe on each: room for a machine that is also building.
  timeout: 60_000,
  // A trace records a screencast of every page: kept for all tests it doubled the browser's CPU. CI
  // retries a failure once with the trace on; locally, `--trace on`.
  use: { baseURL, trace: "on-first-retry", launchOptions },
  projects: [
    { name: "js", use: { ...devices["Desktop Chrome"], launchOptions } },
    {
      name: "no-js",
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions },
      grepInvert: new RegExp(SAME_WITHOUT_JS),
    },
  ],
  webServer: {
    // The production build on its own embedded PostgreSQL, wiped each run.
    command: `rm -rf ${E2E_DATA_DIR} && node --import tsx server/main.ts`,
    url: `${baseURL}/`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      ENV_FILE: "off",
      // No speech model is fetched in the journeys: answers show that their words are coming.
      SPEECH_MODEL_DOWNLOAD: "off",
      // Whoever runs the site in the journeys (sees setup commands); every other account is family.
      ADMIN_EMAILS: SITE_ADMIN_EMAIL,
      PORT: String(E2E_PORT),
      APP_URL: baseURL,
      DATA_DIR: E2E_DATA_DIR,
      EMBEDDED_PG_PORT: String(E2E_PG_PORT),
      // Exports over 1 MB are built by a job, so the keep journey sees both paths (decision 023).
      EXPORT_STREAM_MAX_MB: "1",
      // Books are printed by the same Chromium the journeys run in.
      ...(executablePath ? { CHROMIUM_PATH: executablePath } : {}),
    },
  },
});
