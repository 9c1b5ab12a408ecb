import { createHmac } from "node:crypto";
import { sql } from "kysely";
import type { Config } from "~/config.server";
import { answerCodeKey, answerCodeLookupKey } from "~/services/keys.server";
import type { DbOrTx } from "../../db/client";
import type { Language } from "../../db/schema";

type Keys = Pick<Config, "SESSION_SECRET">;

/**
 * A prompt's 6-digit answer code (decision 022): derived from the prompt id and a salt with a key,
 * so it can be printed again on the Storyteller's page without being stored; at rest there is only
 * its HMAC, which is what a caller's digits are looked up by. Unique among prompts that still take
 * an answer: a clash picks the next salt, and a code held by an answered prompt is freed.
 */
function deriveCode(config: Keys, promptId: string, salt: number) {
  const digest = createHmac("sha256", answerCodeKey(config)).update(`${promptId}:${salt}`).digest();
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, "0");
}

const lookupHmac = (config: Keys, code: string) =>
  createHmac("sha256", answerCodeLookupKey(config)).update(code).digest("base64url");

/** "123 456": how a code is printed and read out. */
export const formatAnswerCode = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;

// Prompts that take no answer any more: answered, and no new recording asked for.
const answeredPromptIds = sql<string>`(select a.prompt_id from answers a join prompts p on p.id = a.prompt_id where p.rerecord_requested_at is null)`;

/** The prompt's code, made on first use (when it is sent, or shown). Run it in the caller's transaction. */
export async function ensureAnswerCode(tx: DbOrTx, config: Keys, promptId: string): Promise<string> {
  for (let salt = 0; salt < 50; salt++) {
    const held = await tx
      .selectFrom("answer_codes")
      .select("salt")
      .where("prompt_id", "=", promptId)
      .executeTakeFirst();
    if (held) return deriveCode(config, promptId, held.salt);
    const code = deriveCode(config, promptId, salt);
    const hmac = lookupHmac(config, code);
    await tx
      .deleteFrom("answer_codes")
      .where("code_hmac", "=", hmac)
      .where("prompt_id", "in", answeredPromptIds)
      .execute();
    const inserted = await tx
      .insertInto("answer_codes")
      .values({ prompt_id: promptId, salt, code_hmac: hmac })
      .onConflict((oc) => oc.doNothing())
      .returning("salt")
      .executeTakeFirst();
    if (inserted) return code;
  }
  throw new Error("no free answer code");
}

/** The codes of these prompts that have one (the Storyteller's page), formatted. */
export async function answerCodesFor(db: DbOrTx, config: Keys, promptIds: string[]): Promise<Map<string, string>> {
  if (!promptIds.length) return new Map();
  const rows = await db
    .selectFrom("answer_codes")
    .select(["prompt_id", "salt"])
    .where("prompt_id", "in", promptIds)
    .execute();
  return new Map(rows.map((r) => [r.prompt_id, formatAnswerCode(deriveCode(config, r.prompt_id, r.salt))]));
}

export type CodedPrompt = { promptId: string; storytellerId: string; language: Language };

/**
 * The prompt a caller's digits open, if it still takes an answer: sent, not answered (or a new
 * recording asked for). A deleted prompt or Storyteller took its code with it (cascade).
 */
export async function findOpenPromptByCode(db: DbOrTx, config: Keys, digits: string): Promise<CodedPrompt | null> {
  if (!/^\d{6}$/.test(digits)) return null;
  const row = await db
    .selectFrom("answer_codes as c")
    .innerJoin("prompts as p", "p.id", "c.prompt_id")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .select(["p.id", "p.storyteller_id", "s.language"])
    .where("c.code_hmac", "=", lookupHmac(config, digits))
    .where("p.sent_at", "is not", null)
    .where("p.id", "not in", answeredPromptIds)
    .executeTakeFirst();
  return row ? { promptId: row.id, storytellerId: row.storyteller_id, language: row.language } : null;
}
