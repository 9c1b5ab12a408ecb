// Imported first by server/main.ts (and the db scripts), before anything reads process.env: the
// settings in `.env` in the working directory, when there is one. A variable already set in the
// environment wins (process.loadEnvFile never overrides one), so the platform's or the shell's
// value beats the file's. ENV_FILE names another file, or `off` for none (the test and benchmark
// servers, which must not pick up a developer's DATABASE_URL or provider keys).
import { existsSync } from "node:fs";
import path from "node:path";

const setting = process.env.ENV_FILE ?? ".env";
const file = path.resolve(setting);
if (setting !== "off" && (existsSync(file) || process.env.ENV_FILE)) {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    // Not the logger: it reads LOG_LEVEL and NODE_ENV, which this file may be about to set.
    process.stderr.write(`[heirloom] could not read ${file}: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
