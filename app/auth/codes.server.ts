import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import type { Config } from "~/config.server";
import { emailedCodeKey } from "~/services/keys.server";

/**
 * The one mechanism behind every code we email (sign-in, email change): 6 random digits, stored only
 * as an HMAC bound to what the code is for, valid 15 minutes, 5 tries, spent by its first right use.
 * Each caller keeps its rows in its own table (auth_flows, email_changes) with these columns.
 */
export const CODE_VALIDITY_MS = 15 * 60 * 1000;
const MAX_CODE_ATTEMPTS = 5;

/** What a code proves: control of a sign-in's address, or of the address an account is moving to. */
export type CodePurpose = "sign-in" | "email-change";
export type StoredCode = { code_hash: string; attempts: number; expires_at: Date };
/** "expired" also covers a code tried too often or already spent (its row is gone). */
export type CodeOutcome = "ok" | "wrong" | "expired";

type Secret = Pick<Config, "SESSION_SECRET">;

// Bound to purpose and subject, so a stored hash means nothing for another row or another use.
function hashCode(config: Secret, purpose: CodePurpose, subject: string, code: string) {
  return createHmac("sha256", emailedCodeKey(config)).update(`${purpose}\u0000${subject}\u0000${code}`).digest("hex");
}

/** A fresh code for `subject` (a sign-in's address, a user and their new address) and the columns to store. */
export function newCode(config: Secret, purpose: CodePurpose, subject: string): { code: string; stored: StoredCode } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  return {
    code,
    stored: {
      code_hash: hashCode(config, purpose, subject, code),
      attempts: 0,
      expires_at: new Date(Date.now() + CODE_VALIDITY_MS),
    },
  };
}

/**
 * Checks `given` against `stored`, a row the caller holds locked (SELECT … FOR UPDATE) so parallel
 * guesses cannot outrun the attempt count, and writes the result through the caller's table: a wrong
 * code counts one attempt, a right one is spent.
 */
export async function redeemCode<Row extends StoredCode>(
  config: Secret,
  purpose: CodePurpose,
  subject: string,
  stored: Row | undefined,
  given: string,
  write: { countAttempt: (row: Row, attempts: number) => Promise<unknown>; spend: (row: Row) => Promise<unknown> },
): Promise<CodeOutcome> {
  if (!stored || stored.expires_at.getTime() <= Date.now() || stored.attempts >= MAX_CODE_ATTEMPTS) return "expired";
  const expected = Buffer.from(stored.code_hash, "hex");
  const actual = Buffer.from(hashCode(config, purpose, subject, given.trim()), "hex");
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    await write.countAttempt(stored, stored.attempts + 1);
    return "wrong";
  }
  await write.spend(stored);
  return "ok";
}
