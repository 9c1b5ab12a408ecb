import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { type DbOrTx, inTransaction } from "../../db/client";

/**
 * Consent to be called (decision 027), kept as texts keep theirs: one row per event in
 * `call_consents`, outliving the Storyteller, the number's latest row deciding. The owner's word
 * grants it (the sentence they ticked, who and when); pressing 0 on a call or texting STOP
 * revokes it for every Storyteller on the number, until the owner confirms again.
 */

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
  await tx
    .updateTable("storytellers")
    .set({ call_consent: "granted", updated_at: now })
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
