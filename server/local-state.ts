import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export type LocalSecrets = { SESSION_SECRET: string; EMBEDDED_PG_PASSWORD: string };

/**
 * Secrets for a self-contained install, generated once into DATA_DIR and reused on every start,
 * so `npm start` needs no configuration and sessions survive restarts.
 */
export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  // Not 0700: when run as root, PostgreSQL runs as the "postgres" user and must reach its folder inside.
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "secrets.json");
  let stored: Partial<LocalSecrets> = {};
  try {
    stored = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    // Only a missing file means "first start". Regenerating over a damaged one would lock the
    // existing database (its password is in here), so stop and say so instead.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new Error(
        `${file} is unreadable (${(error as Error).message}); restore it or remove it together with ${path.join(dataDir, "postgres")}`,
      );
    }
  }
  const secrets: LocalSecrets = {
    SESSION_SECRET: stored.SESSION_SECRET ?? randomBytes(32).toString("base64url"),
    EMBEDDED_PG_PASSWORD: stored.EMBEDDED_PG_PASSWORD ?? randomBytes(18).toString("base64url"),
  };
  if (
    secrets.SESSION_SECRET !== stored.SESSION_SECRET ||
    secrets.EMBEDDED_PG_PASSWORD !== stored.EMBEDDED_PG_PASSWORD
  ) {
    writeFileSync(file, JSON.stringify(secrets, null, 2) + "\n", { mode: 0o600 });
  }
  return secrets;
}
