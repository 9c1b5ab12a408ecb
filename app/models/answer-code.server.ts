import { createHmac } from "node:crypto";
import { sql } from "kysely";
import type { Config } from "~/config.server";
import { answerCodeKey, answerCodeLookupKey } from "~/services/keys.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";

type Keys = Pick<Config, "SESSION_SECRET">;

/**
 * A prompt's answer code (decision 022): 6 to 12 digits, derived from the prompt id, a salt and its
 * length with a key, so it can be printed again without being stored; at rest there is only its
 * HMAC, which a caller's digits are looked up by. Codes grow with the site: a code gets the smallest
 * length L whose open codes (with it) stay within 10^(L−5), so a random try of any length opens a
 * question at most once in 100,000. A prompt holds its code while it takes answers; answering it
 * gives the code up (`releaseAnswerCode`), and reopening it makes one again.
 */
export const MIN_CODE_LENGTH = 6;
export const MAX_CODE_LENGTH = 12;
/** At most one open code in this many of each length. */
export const GUESS_ODDS = 100_000;
export const capacityOf = (length: number) => 10 ** length / GUESS_ODDS;

/** Every minting transaction takes this (one-key) advisory lock, so counts are exact and inserts never cross. */
const MINT_LOCK = 22_000_022;

function deriveCode(key: Buffer, promptId: string, salt: number, length: number) {
  const digest = createHmac("sha256", key).update(`${promptId}:${salt}`).digest();
  // Six digits keep the derivation the first codes were printed with.
  const value =
    length === MIN_CODE_LENGTH
      ? BigInt(digest.readUInt32BE(0) % 1_000_000)
      : digest.readBigUInt64BE(0) % 10n ** BigInt(length);
  return value.toString().padStart(length, "0");
}

const lookupHmac = (key: Buffer, code: string) => createHmac("sha256", key).update(code).digest("base64url");

/** The HMAC a caller's digits are kept as (looked up, or remembered as a wrong code): never the digits. */
export const digitsHmac = (config: Keys, digits: string) => lookupHmac(answerCodeLookupKey(config), digits);

/** "123 456", "123 456 7890": groups of three, a last lone digit joining the group before it. */
export function codeGroups(code: string) {
  const groups = code.match(/\d{1,3}/g) ?? [];
  if (groups.length > 1 && groups.at(-1)!.length === 1) groups.splice(-2, 2, groups.at(-2)! + groups.at(-1)!);
  return groups;
}
/** How a code is printed and read out. */
export const formatAnswerCode = (code: string) => codeGroups(code).join(" ");

type Held = { prompt_id: string; salt: number; length: number };

async function heldCodes(tx: DbOrTx, key: Buffer, promptIds: string[], into: Map<string, string>) {
  if (!promptIds.length) return into;
  const rows: Held[] = await tx
    .selectFrom("answer_codes")
    .select(["prompt_id", "salt", "length"])
    .where("prompt_id", "in", promptIds)
    .execute();
  for (const r of rows) into.set(r.prompt_id, deriveCode(key, r.prompt_id, r.salt, r.length));
  return into;
}

/** Open codes by length: every row is a prompt that takes answers (or is about to be sent). */
async function openByLength(tx: DbOrTx) {
  const rows = await tx
    .selectFrom("answer_codes")
    .select(["length", sql<number>`count(*)::int`.as("n")])
    .groupBy("length")
    .execute();
  return new Map(rows.map((r) => [r.length, r.n]));
}

/** The length each new code gets: the smallest that stays within its capacity with it. */
function assignLengths(open: Map<number, number>, count: number) {
  const lengths: number[] = [];
  let length = MIN_CODE_LENGTH;
  while (lengths.length < count) {
    if (length > MAX_CODE_LENGTH) throw new Error("no free answer code length");
    const n = open.get(length) ?? 0;
    if (n + 1 > capacityOf(length)) length++;
    else {
      open.set(length, n + 1);
      lengths.push(length);
    }
  }
  return lengths;
}

/**
 * These prompts' codes (digits, by prompt id), made now for those without one, in the caller's
 * transaction. Codes already held cost one select. Making new ones takes a transaction-level
 * advisory lock, so concurrent send batches mint one after another: the counts by length are
 * exact, and no insert ever waits on another's uncommitted code (no deadlock). A code another
 * prompt holds (1 in 100,000 at most) is tried again with the next salt.
 */
export function ensureAnswerCodes(db: DbOrTx, config: Keys, promptIds: string[]): Promise<Map<string, string>> {
  // The lock lasts as long as a transaction: outside one, a statement's.
  return inTransaction(db, (tx) => mintCodes(tx, config, promptIds));
}

async function mintCodes(tx: DbOrTx, config: Keys, promptIds: string[]) {
  const key = answerCodeKey(config);
  const ids = [...new Set(promptIds)];
  const codes = await heldCodes(tx, key, ids, new Map());
  if (codes.size === ids.length) return codes;
  await sql`select pg_advisory_xact_lock(${MINT_LOCK})`.execute(tx);
  // Made by another transaction while this one waited for the lock.
  await heldCodes(
    tx,
    key,
    ids.filter((id) => !codes.has(id)),
    codes,
  );
  const missing = ids.filter((id) => !codes.has(id)).sort();
  if (!missing.length) return codes;
  const lengths = assignLengths(await openByLength(tx), missing.length);
  const lookupKey = answerCodeLookupKey(config);
  let todo = missing.map((promptId, i) => ({ promptId, length: lengths[i], salt: 0 }));
  for (let round = 0; todo.length; round++) {
    if (round === 50) throw new Error("no free answer code");
    const rows = todo
      .map(({ promptId, length, salt }) => {
        const code = deriveCode(key, promptId, salt, length);
        return { prompt_id: promptId, salt, length, code, code_hmac: lookupHmac(lookupKey, code) };
      })
      .sort((a, b) => (a.code_hmac < b.code_hmac ? -1 : a.code_hmac > b.code_hmac ? 1 : 0));
    const inserted = await tx
      .insertInto("answer_codes")
      .values(rows.map(({ code: _code, ...row }) => row))
      .onConflict((oc) => oc.doNothing())
      .returning("prompt_id")
      .execute();
    const made = new Set(inserted.map((r) => r.prompt_id));
    for (const row of rows) if (made.has(row.prompt_id)) codes.set(row.prompt_id, row.code);
    todo = todo.filter((t) => !made.has(t.promptId)).map((t) => ({ ...t, salt: t.salt + 1 }));
  }
  return codes;
}

/** One prompt's code (the call-out's answering machine message, tests). */
export async function ensureAnswerCode(tx: DbOrTx, config: Keys, promptId: string): Promise<string> {
  return (await ensureAnswerCodes(tx, config, [promptId])).get(promptId)!;
}

/** The prompt takes no answer any more (it has one): its code stops working and frees its place. */
export async function releaseAnswerCode(tx: DbOrTx, promptId: string) {
  await tx.deleteFrom("answer_codes").where("prompt_id", "=", promptId).execute();
}

/**
 * The prompt takes answers again (its answer was deleted): it gets a code again, minted as any new
 * one (the Sent tab and record page show it). Only while answering by phone is on.
 */
export async function reopenAnswerCode(tx: DbOrTx, config: Keys & Pick<Config, "voiceNumber">, promptId: string) {
  if (config.voiceNumber) await ensureAnswerCodes(tx, config, [promptId]);
}

/** The codes of these prompts that have one (the Storyteller's page), formatted. */
export async function answerCodesFor(db: DbOrTx, config: Keys, promptIds: string[]): Promise<Map<string, string>> {
  const codes = await heldCodes(db, answerCodeKey(config), promptIds, new Map());
  return new Map([...codes].map(([id, code]) => [id, formatAnswerCode(code)]));
}

export type CodedPrompt = { promptId: string; storytellerId: string; language: Language };

/** Digits that could be a code at all (anything else is not looked up). */
export const looksLikeCode = (digits: string) =>
  digits.length >= MIN_CODE_LENGTH && digits.length <= MAX_CODE_LENGTH && /^\d+$/.test(digits);

/**
 * The prompt a caller's digits open, if it still takes an answer: sent, not answered (or a new
 * recording asked for). A deleted prompt or Storyteller took its code with it (cascade).
 */
export async function findOpenPromptByCode(db: DbOrTx, config: Keys, digits: string): Promise<CodedPrompt | null> {
  if (!looksLikeCode(digits)) return null;
  const row = await db
    .selectFrom("answer_codes as c")
    .innerJoin("prompts as p", "p.id", "c.prompt_id")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .select(["p.id", "p.storyteller_id", "s.language"])
    .where("c.code_hmac", "=", digitsHmac(config, digits))
    .where("p.sent_at", "is not", null)
    .where((eb) =>
      eb.or([
        eb("p.rerecord_requested_at", "is not", null),
        eb.not(eb.exists(eb.selectFrom("answers as a").select("a.id").whereRef("a.prompt_id", "=", "p.id"))),
      ]),
    )
    .executeTakeFirst();
  return row ? { promptId: row.id, storytellerId: row.storyteller_id, language: row.language } : null;
}
