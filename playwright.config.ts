import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3311);
const baseURL = `http://localhost:${PORT}`;

// Debian's Chromium when Playwright's own browser is not installed (nothing downloads browsers here).
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const launchOptions = {
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  timeout: 30_000,
  use: { baseURL, trace: "retain-on-failure", launchOptions },
  projects: [
    { name: "js", use: { ...devices["Desktop Chrome"], launchOptions } },
    { name: "no-js", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions } },
  ],
  webServer: {
    // The production build on its own embedded PostgreSQL, wiped each run.
    command: "rm -rf .data/e2e && node --import tsx server/main.ts",
    url: `${baseURL}/`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      APP_URL: baseURL,
      DATA_DIR: ".data/e2e",
      EMBEDDED_PG_PORT: String(Number(process.env.E2E_PG_PORT ?? 54322)),
    },
  },
});
