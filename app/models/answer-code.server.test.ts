import { createHmac, randomInt } from "node:crypto";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { answerCodeLookupKey } from "~/services/keys.server";
import { inTransaction } from "../../db/client";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createStoryteller, createUser } from "../../tests/factories";
import {
  capacityOf,
  ensureAnswerCode,
  ensureAnswerCodes,
  findOpenPromptByCode,
  formatAnswerCode,
  MAX_CODE_LENGTH,
  MIN_CODE_LENGTH,
} from "./answer-code.server";
import { spokenCode } from "./phone-script.server";

const database = useTestDatabase();
const config = () => makeTestContext(database).config;

beforeEach(async () => {
  await sql`truncate answer_codes`.execute(database.db);
});

/** `count` sent prompts of one Storyteller, in one statement. */
async function sentPrompts(count: number) {
  const owner = await createUser(database.db);
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
  const { rows } = await sql<{ id: string }>`
    insert into prompts (storyteller_id, text, queue_position, sent_at)
    select ${storyteller.id}::uuid, 'Question ' || g || '?', g, now()
    from generate_series(1, ${count}::int) as g
    returning id`.execute(database.db);
  return rows.map((r) => r.id);
}

const openByLength = async () =>
  new Map(
    (
      await database.db
        .selectFrom("answer_codes")
        .select(["length", sql<number>`count(*)::int`.as("n")])
        .groupBy("length")
        .execute()
    ).map((r) => [r.length, r.n]),
  );

const mint = (ids: string[]) => inTransaction(database.db, (tx) => ensureAnswerCodes(tx, config(), ids));

describe("answer codes", () => {
  it("are printed and read out in groups of three, a last lone digit joining the group before", () => {
    expect(formatAnswerCode("123456")).toBe("123 456");
    expect(formatAnswerCode("1234567")).toBe("123 4567");
    expect(formatAnswerCode("12345678")).toBe("123 456 78");
    expect(formatAnswerCode("1234567890")).toBe("123 456 7890");
    expect(formatAnswerCode("123456789012")).toBe("123 456 789 012");
    expect(spokenCode("1234567890")).toBe("1 2 3, 4 5 6, 7 8 9 0");
    expect(spokenCode("1234567", "hi")).toBe("एक दो तीन, चार पाँच छह सात");
  });

  it("stay at six digits on a family's site and grow one digit when a length is full", async () => {
    const ids = await sentPrompts(12);
    const first = await mint(ids.slice(0, 10));
    expect([...first.values()].every((code) => /^\d{6}$/.test(code))).toBe(true);
    const again = await mint(ids);
    // Held codes are the same; the 11th and 12th find six digits full (10 open) and get seven.
    for (const [id, code] of first) expect(again.get(id)).toBe(code);
    expect(
      ids
        .slice(10)
        .map((id) => again.get(id)!.length)
        .sort(),
    ).toEqual([7, 7]);
    expect(await openByLength()).toEqual(
      new Map([
        [6, 10],
        [7, 2],
      ]),
    );
    expect(new Set(again.values()).size).toBe(12);
  });

  it("at 100,000 open questions: each length within 1 in 100,000, random guesses open almost nothing, real codes open theirs", async () => {
    const ids = await sentPrompts(100_000);
    const codes = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 1000)
      for (const [id, code] of await mint(ids.slice(i, i + 1000))) codes.set(id, code);
    expect(codes.size).toBe(100_000);
    expect(new Set(codes.values()).size).toBe(100_000);

    const open = await openByLength();
    for (const [length, n] of open) expect(n).toBeLessThanOrEqual(capacityOf(length));
    expect(open).toEqual(
      new Map([
        [6, 10],
        [7, 100],
        [8, 1_000],
        [9, 10_000],
        [10, 88_890],
      ]),
    );

    // 3,000 random tries of every length against every code at once (the lookup is by HMAC).
    const lookupKey = answerCodeLookupKey(config());
    let opened = 0;
    for (let length = MIN_CODE_LENGTH; length <= MAX_CODE_LENGTH; length++) {
      const guesses = Array.from({ length: 3000 }, () => Array.from({ length }, () => randomInt(10)).join(""));
      const hmacs = guesses.map((g) => createHmac("sha256", lookupKey).update(g).digest("base64url"));
      const row = await database.db
        .selectFrom("answer_codes")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("code_hmac", "in", hmacs)
        .executeTakeFirstOrThrow();
      opened += row.n;
    }
    // At most 1 in 100,000 per try: 21,000 tries expect 0.21 hits (six digits alone would give ~2,000).
    expect(opened).toBeLessThanOrEqual(3);

    for (const id of [ids[0], ids[50], ids[500], ids[5_000], ids[99_999]]) {
      expect(await findOpenPromptByCode(database.db, config(), codes.get(id)!)).toMatchObject({ promptId: id });
    }
  }, 180_000);

  it("made by concurrent batches over shared prompts in crossing orders: no deadlock, one code each", async () => {
    const ids = await sentPrompts(200);
    // Six digits nearly full already, so new codes clash and cross lengths.
    await mint(ids.slice(0, 9));
    const batches = Array.from({ length: 6 }, (_, b) => {
      const overlapping = ids.slice(9).filter((_, i) => i % 3 !== b % 3);
      return b % 2 ? overlapping.reverse() : overlapping;
    });
    const results = await Promise.all(
      batches.map((batch) =>
        inTransaction(database.db, async (tx) => {
          const codes = await ensureAnswerCodes(tx, config(), batch);
          // A send batch goes on working in its transaction after minting.
          await sql`select pg_sleep(0.05)`.execute(tx);
          return codes;
        }),
      ),
    );
    const byPrompt = new Map<string, string>();
    for (const codes of results)
      for (const [id, code] of codes) {
        expect(byPrompt.get(id) ?? code).toBe(code);
        byPrompt.set(id, code);
      }
    expect(byPrompt.size).toBe(191);
    const rows = await database.db.selectFrom("answer_codes").select(["prompt_id", "code_hmac"]).execute();
    expect(rows).toHaveLength(200);
    for (const [length, n] of await openByLength()) expect(n).toBeLessThanOrEqual(capacityOf(length));
    expect(await ensureAnswerCode(database.db, config(), ids[10])).toBe(byPrompt.get(ids[10]));
  });
});
