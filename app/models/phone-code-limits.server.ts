import { sql } from "kysely";
import type { Config } from "~/config.server";
import type { DbOrTx } from "../../db/client";
import { digitsHmac } from "./answer-code.server";

// How wrong answer codes slow a guesser without shutting anyone else out (decision 022). Wrong
// codes are kept per caller and digits (the same wrong digits again count once: a grandmother
// retyping is not a guesser), for a day. Nothing here ever stops the right code from a caller who
// is not waiting; there is no lock-out of a whole Heirloom number.

/** Wrong codes a caller may enter in a day before each one costs a wait. */
export const FREE_WRONG_CODES = 3;
/**
 * More callers than this with wrong codes to one Heirloom number within the hour looks like one
 * guesser changing caller IDs: then nobody's wrong codes are free (the right code still is).
 */
export const GUESSING_CALLERS_PER_HOUR = 20;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
export const WRONG_CODE_MEMORY_MS = 24 * HOUR_MS;

/** The wait after a caller's `wrong`-th wrong code of the day: 1, 2, 4 … minutes past the free ones, at most a day. */
export function backoffMs(wrong: number, free = FREE_WRONG_CODES) {
  if (wrong <= free) return 0;
  return Math.min(2 ** (wrong - free - 1) * MINUTE_MS, WRONG_CODE_MEMORY_MS);
}

/** How long this caller must wait before entering a code again (0: they may now). */
export async function codeEntryWaitMs(db: DbOrTx, caller: string, called: string, now = new Date()) {
  const dayAgo = new Date(now.getTime() - WRONG_CODE_MEMORY_MS);
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const row = await db
    .selectFrom("phone_code_failures")
    .select([
      sql<number>`count(*) filter (where caller_e164 = ${caller})::int`.as("wrong"),
      sql<Date | null>`max(last_at) filter (where caller_e164 = ${caller})`.as("last"),
      sql<number>`count(distinct caller_e164) filter (where called_e164 = ${called} and last_at > ${hourAgo})::int`.as(
        "guessers",
      ),
    ])
    .where("last_at", ">", dayAgo)
    .where((eb) =>
      eb.or([eb("caller_e164", "=", caller), eb.and([eb("called_e164", "=", called), eb("last_at", ">", hourAgo)])]),
    )
    .executeTakeFirstOrThrow();
  const wait = backoffMs(row.wrong, row.guessers > GUESSING_CALLERS_PER_HOUR ? 0 : FREE_WRONG_CODES);
  if (!wait || !row.last) return 0;
  return Math.max(0, new Date(row.last).getTime() + wait - now.getTime());
}

/** A wrong code: remembered by its HMAC, once per caller and digits (a repeat only moves its time). */
export async function recordWrongCode(
  db: DbOrTx,
  config: Pick<Config, "SESSION_SECRET">,
  attempt: { caller: string; called: string; digits: string },
  now = new Date(),
) {
  await db
    .insertInto("phone_code_failures")
    .values({
      caller_e164: attempt.caller,
      called_e164: attempt.called,
      code_hmac: digitsHmac(config, attempt.digits),
      created_at: now,
      last_at: now,
    })
    .onConflict((oc) =>
      oc.columns(["caller_e164", "code_hmac"]).doUpdateSet({ last_at: now, called_e164: attempt.called }),
    )
    .execute();
}

/** Wrong codes a day old are forgotten (the hourly upkeep). */
export async function forgetOldWrongCodes(db: DbOrTx, now = new Date()) {
  await db
    .deleteFrom("phone_code_failures")
    .where("last_at", "<", new Date(now.getTime() - WRONG_CODE_MEMORY_MS))
    .execute();
}
