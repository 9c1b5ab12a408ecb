import os from "node:os";
import path from "node:path";
import { completeConfig, parseEnv } from "~/config.server";
import type { AppContext } from "~/context.server";
import { createOutboxMail } from "~/services/mail.server";
import { createOutboxSms } from "~/services/sms.server";
import { createLocalStorage } from "~/services/storage.server";
import { createRateLimiter } from "~/utils/rate-limit.server";
import type { TestDatabase } from "./db";

export const TEST_SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";

/** The context loaders and actions get, built on a test database, with outbox mail and SMS. */
export function makeTestContext(
  database: TestDatabase,
  env: Record<string, string> = {},
  overrides: Partial<AppContext> = {},
): AppContext {
  const config = completeConfig(
    parseEnv({
      NODE_ENV: "test",
      APP_URL: "http://localhost:3000",
      // Tests never fetch a speech model from the internet (a test that downloads names its own server).
      SPEECH_MODEL_DOWNLOAD: "off",
      ...env,
    }),
    {
      SESSION_SECRET: TEST_SESSION_SECRET,
    },
  );
  return {
    db: database.db,
    config,
    mail: createOutboxMail({ print: false }),
    sms: createOutboxSms({ print: false }),
    storage: createLocalStorage(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`)),
    rateLimit: createRateLimiter(database.pool, { clearExpired: false }),
    cspNonce: "",
    clientIp: "127.0.0.1",
    fromLoopback: true,
    ...overrides,
  };
}

/** A same-origin form POST, as a browser sends it. */
export function formRequest(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", ...headers },
    body: new URLSearchParams(fields),
  });
}

/** React Router also passes `url` and `pattern`; our handlers read `request.url`, so these only complete the type. */
export const routeArgs = { url: new URL("http://localhost:3000/"), pattern: "/" };
