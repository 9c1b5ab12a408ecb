import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { numberRefusesCalls } from "~/services/outbox.server";
import { type DbOrTx, inTransaction } from "../../db/client";

/**
 * Consent to be called (decision 027), kept as texts keep theirs: one row per event in
 * `call_consents`, outliving the Storyteller. The owner's word grants it (the sentence they ticked,
 * who and when); pressing 0 on a call or texting STOP revokes it for every Storyteller on the
 * number. Only the number's own word lifts its opt-out (START by text): an owner ticking the box
 * again, or another account adding the number, never does.
 */

/** The very sentence an owner ticked on the Storyteller form, in the language they saw it in. */
export async function statementTheOwnerTicked(
  tx: DbOrTx,
  config: Config,
  ownerId: string,
  key: "fields.callConsent" | "fields.whatsappConsent",
) {
  const owner = await tx.selectFrom("users").select("language").where("id", "=", ownerId).executeTakeFirstOrThrow();
  const t = await getServerT(owner.language, { config }, "storytellers");
  return t(key);
}

/** The owner confirmed, on the Storyteller form, that the Storyteller agreed to be called. */
export async function grantCallConsent(
  tx: DbOrTx,
  config: Config,
  input: { storytellerId: string; phoneE164: string; givenBy: string },
  now = new Date(),
) {
  const statement = await statementTheOwnerTicked(tx, config, input.givenBy, "fields.callConsent");
  await tx
    .insertInto("call_consents")
    .values({
      storyteller_id: input.storytellerId,
      phone_e164: input.phoneE164,
      status: "granted",
      source: "owner",
      statement,
      given_by: input.givenBy,
      created_at: now,
    })
    .execute();
  // The owner's word is recorded either way; it does not outweigh the number's own opt-out.
  const optedOut = await numberRefusesCalls(tx, input.phoneE164);
  await tx
    .updateTable("storytellers")
    .set({ call_consent: optedOut ? "revoked" : "granted", updated_at: now })
    .where("id", "=", input.storytellerId)
    .execute();
}

/**
 * The person at `phoneE164` asked not to be called (a key on the call, or STOP by text): every
 * Storyteller on the number stops being called; the row stays even when nobody uses the number.
 */
export function revokeCallConsent(
  db: DbOrTx,
  input: { phoneE164: string; source: "call" | "text"; statement: string },
  now = new Date(),
) {
  return recordNumbersWord(db, { ...input, status: "revoked" }, now);
}

/**
 * The person at `phoneE164` asked to hear from us again (START by text): calls to the number may
 * resume for the Storytellers whose owners had confirmed them (those the opt-out had stopped).
 */
export async function restoreCallConsent(
  db: DbOrTx,
  input: { phoneE164: string; statement: string },
  now = new Date(),
) {
  if (!(await numberRefusesCalls(db, input.phoneE164))) return;
  await recordNumbersWord(db, { ...input, source: "text", status: "granted" }, now);
}

/**
 * The number's own word on calls: every Storyteller on it follows, and a row per Storyteller (or
 * one for the number alone) records it.
 */
function recordNumbersWord(
  db: DbOrTx,
  input: { phoneE164: string; source: "call" | "text"; status: "granted" | "revoked"; statement: string },
  now: Date,
) {
  return inTransaction(db, async (tx) => {
    const storytellers = await tx
      .updateTable("storytellers")
      .set({ call_consent: input.status, updated_at: now })
      .where("phone_e164", "=", input.phoneE164)
      // A stop reaches everyone the owner confirmed; a START only those a stop had stopped.
      .where("call_consent", "in", input.status === "revoked" ? ["granted", "revoked"] : ["revoked"])
      .returning("id")
      .execute();
    const rows = (storytellers.length ? storytellers.map((s) => s.id) : [null]).map((id) => ({
      storyteller_id: id,
      phone_e164: input.phoneE164,
      status: input.status,
      source: input.source,
      statement: input.statement.slice(0, 500),
      created_at: now,
    }));
    await tx.insertInto("call_consents").values(rows).execute();
  });
}
