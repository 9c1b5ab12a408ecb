import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { type DbOrTx, inTransaction } from "../../db/client";

/**
 * Consent to be called (decision 027), kept as texts keep theirs: one row per event in
 * `call_consents`, outliving the Storyteller. The owner's word grants it (the sentence they ticked,
 * who and when); pressing 0 on a call or texting STOP revokes it for every Storyteller on the
 * number. Only the number's own word lifts its opt-out (START by text): an owner ticking the box
 * again, or another account adding the number, never does.
 */

/** The person at the number asked not to be called, and has not asked to be called again since. */
export async function numberOptedOutOfCalls(db: DbOrTx, phoneE164: string): Promise<boolean> {
  const latest = await db
    .selectFrom("call_consents")
    .select("status")
    .where("phone_e164", "=", phoneE164)
    .where("source", "<>", "owner")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return latest?.status === "revoked";
}

/** The owner confirmed, on the Storyteller form, that the Storyteller agreed to be called. */
export async function grantCallConsent(
  tx: DbOrTx,
  config: Config,
  input: { storytellerId: string; phoneE164: string; givenBy: string },
  now = new Date(),
) {
  const owner = await tx
    .selectFrom("users")
    .select("language")
    .where("id", "=", input.givenBy)
    .executeTakeFirstOrThrow();
  const t = await getServerT(owner.language, { config }, "storytellers");
  await tx
    .insertInto("call_consents")
    .values({
      storyteller_id: input.storytellerId,
      phone_e164: input.phoneE164,
      status: "granted",
      source: "owner",
      // The very sentence the owner ticked, in the language they saw it in.
      statement: t("fields.callConsent"),
      given_by: input.givenBy,
      created_at: now,
    })
    .execute();
  // The owner's word is recorded either way; it does not outweigh the number's own opt-out.
  const optedOut = await numberOptedOutOfCalls(tx, input.phoneE164);
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
export async function revokeCallConsent(
  db: DbOrTx,
  input: { phoneE164: string; source: "call" | "text"; statement: string },
  now = new Date(),
) {
  await inTransaction(db, async (tx) => {
    const storytellers = await tx
      .updateTable("storytellers")
      .set({ call_consent: "revoked", updated_at: now })
      .where("phone_e164", "=", input.phoneE164)
      .where("call_consent", "<>", "none")
      .returning("id")
      .execute();
    const rows = (storytellers.length ? storytellers.map((s) => s.id) : [null]).map((id) => ({
      storyteller_id: id,
      phone_e164: input.phoneE164,
      status: "revoked" as const,
      source: input.source,
      statement: input.statement.slice(0, 500),
      created_at: now,
    }));
    await tx.insertInto("call_consents").values(rows).execute();
  });
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
  if (!(await numberOptedOutOfCalls(db, input.phoneE164))) return;
  await inTransaction(db, async (tx) => {
    const storytellers = await tx
      .updateTable("storytellers")
      .set({ call_consent: "granted", updated_at: now })
      .where("phone_e164", "=", input.phoneE164)
      .where("call_consent", "=", "revoked")
      .returning("id")
      .execute();
    const rows = (storytellers.length ? storytellers.map((s) => s.id) : [null]).map((id) => ({
      storyteller_id: id,
      phone_e164: input.phoneE164,
      status: "granted" as const,
      source: "text" as const,
      statement: input.statement.slice(0, 500),
      created_at: now,
    }));
    await tx.insertInto("call_consents").values(rows).execute();
  });
}
