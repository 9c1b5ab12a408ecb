import { sql } from "kysely";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { numberHasSentStop, queueSms } from "~/services/outbox.server";
import { composeConsentRequest } from "~/services/prompt-messages.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";
import { restoreCallConsent, revokeCallConsent, statementTheOwnerTicked } from "./call-consent.server";
import { nextWindowOpening } from "./schedule";

/**
 * Carrier keywords (CTIA and Twilio's defaults), matched on the whole trimmed reply, and the Hindi
 * words the README names for WhatsApp: बंद ("stop") and शुरू ("start").
 */
const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT", "बंद"]);
const START_WORDS = new Set(["START", "YES", "UNSTOP", "Y", "शुरू"]);
const HELP_WORDS = new Set(["HELP", "INFO"]);

export type InboundKind = "stop" | "start" | "help" | "other";

/** The first key of the two-key advisory lock a number's STOP/START take (the second: the number's hash). */
const CONSENT_LOCK = 37_000_037;

export function classifyReply(body: string): InboundKind {
  const word = body
    .trim()
    .replace(/[.!]+$/, "")
    .toUpperCase();
  if (STOP_WORDS.has(word)) return "stop";
  if (START_WORDS.has(word)) return "start";
  if (HELP_WORDS.has(word)) return "help";
  return "other";
}

/**
 * The first text to a Storyteller asks for consent; prompts wait for YES. Sent inside the
 * Storyteller's daytime window. A number that has texted STOP is not texted again until START.
 */
export async function requestSmsConsent(db: DbOrTx, config: Config, storytellerId: string, now = new Date()) {
  await inTransaction(db, async (tx) => {
    const row = await tx
      .selectFrom("storytellers as s")
      .innerJoin("users as owner", "owner.id", "s.owner_id")
      .leftJoin("schedules as sc", "sc.storyteller_id", "s.id")
      .select([
        "s.id",
        "s.phone_e164",
        "s.language",
        "s.time_zone",
        "s.delivery_method",
        "owner.first_name as asker",
        "sc.frequency",
      ])
      .where("s.id", "=", storytellerId)
      .executeTakeFirst();
    if (!row || row.delivery_method !== "sms" || !row.phone_e164) return;

    if (await numberHasSentStop(tx, row.phone_e164)) {
      await tx
        .updateTable("storytellers")
        .set({ sms_consent: "revoked", updated_at: now })
        .where("id", "=", row.id)
        .execute();
      return;
    }
    const text = await composeConsentRequest(config, {
      language: row.language,
      askerName: row.asker,
      frequency: row.frequency ?? "weekly",
    });
    await tx
      .insertInto("sms_consents")
      .values({ storyteller_id: row.id, phone_e164: row.phone_e164, text_shown: text, status: "requested" })
      .execute();
    await tx
      .updateTable("storytellers")
      .set({ sms_consent: "requested", updated_at: now })
      .where("id", "=", row.id)
      .execute();
    await queueSms(tx, { to: row.phone_e164, text }, { runAt: nextWindowOpening(now, row.time_zone) });
  });
}

/**
 * WhatsApp's consent (decision 041) is kept as texts keep theirs, per number: the owner confirms on
 * the form that the Storyteller agreed (the sentence they ticked is the row's text_shown); it never
 * outweighs the number's own STOP, which only START from it lifts.
 */
export async function grantWhatsAppConsent(
  tx: DbOrTx,
  config: Config,
  input: { storytellerId: string; phoneE164: string; givenBy: string },
  now = new Date(),
) {
  const statement = await statementTheOwnerTicked(tx, config, input.givenBy, "fields.whatsappConsent");
  await tx
    .insertInto("sms_consents")
    .values({
      storyteller_id: input.storytellerId,
      phone_e164: input.phoneE164,
      text_shown: statement,
      status: "granted",
      created_at: now,
    })
    .execute();
  const stopped = await numberHasSentStop(tx, input.phoneE164);
  await tx
    .updateTable("storytellers")
    .set({ sms_consent: stopped ? "revoked" : "granted", updated_at: now })
    .where("id", "=", input.storytellerId)
    .execute();
}

/** The number's latest consent answer was STOP: the outbox's own check, for pages and forms. */
export { numberHasSentStop };

/**
 * An inbound text (Twilio's webhook, or the outbox's reply form). STOP and its synonyms opt the
 * number out of every Storyteller at once; START/YES opt it back in; HELP gets contact details.
 * Each answer is kept as a consent record: the text that was shown, the reply and the time.
 * Returns the reply to text back, if any.
 */
export async function handleInboundSms(
  db: DbOrTx,
  config: Config,
  input: { from: string; body: string; messageSid?: string },
  now = new Date(),
): Promise<string | null> {
  const kind = classifyReply(input.body);
  if (kind === "other") return null;
  return inTransaction(db, async (tx) => {
    // A text Twilio sent before (a retry, or a replayed request) was answered then: nothing more.
    if (input.messageSid) {
      const first = await tx
        .insertInto("inbound_messages")
        .values({ message_sid: input.messageSid })
        .onConflict((oc) => oc.doNothing())
        .returning("message_sid")
        .executeTakeFirst();
      if (!first) return null;
    }
    const { language, asker, superseded } = await recordConsentReply(tx, { ...input, kind }, now);
    const t = await getServerT(language, { config }, "delivery");
    if (superseded) return null;
    if (kind === "help") return t("consent.help", { contactUrl: `${config.APP_URL}/contact-us` });
    if (kind === "stop") return t("consent.stopped");
    return asker === null ? null : t("consent.granted", { asker });
  });
}

/**
 * A STOP or START (or HELP, which changes nothing) from `from`, by text or WhatsApp, in the caller's
 * transaction. STOP and its synonyms opt the number out of every Storyteller at once (calls too);
 * START/YES opt it back in. Each answer is kept as a consent record: the text that was shown, the
 * reply and the time. Returns the language to answer in and the asker of the newest Storyteller
 * the answer reached (null when it reached none).
 *
 * A number's answers are taken one at a time (a transaction-scoped advisory lock on the number),
 * and the newest by arrival (`now`, taken as the webhook came in) has the last word: one that
 * arrived before an answer already recorded is kept in the ledger but changes nothing
 * (`superseded`; no reply is owed, the newer one was answered).
 */
export async function recordConsentReply(
  tx: DbOrTx,
  input: { from: string; body: string; kind: Exclude<InboundKind, "other"> },
  now = new Date(),
): Promise<{ language: Language; asker: string | null; superseded: boolean }> {
  const { kind } = input;
  if (kind !== "help") await sql`select pg_advisory_xact_lock(${CONSENT_LOCK}, hashtext(${input.from}))`.execute(tx);
  const storytellers = await tx
    .selectFrom("storytellers as s")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .select(["s.id", "s.language", "s.sms_consent", "owner.first_name as asker"])
    .where("s.phone_e164", "=", input.from)
    .orderBy("s.created_at", "desc")
    .execute();
  const language: Language = storytellers[0]?.language ?? "en";
  if (kind === "help") return { language, asker: null, superseded: false };

  const status = kind === "stop" ? "revoked" : "granted";
  const reply = input.body.trim().slice(0, 160);
  const newer = await tx
    .selectFrom("sms_consents")
    .select("id")
    .where("phone_e164", "=", input.from)
    .where("replied_at", ">", now)
    .limit(1)
    .executeTakeFirst();
  if (newer) {
    await tx
      .insertInto("sms_consents")
      .values({ storyteller_id: null, phone_e164: input.from, text_shown: "", reply, status, replied_at: now })
      .execute();
    return { language, asker: null, superseded: true };
  }
  // STOP also stops calls to the number, and START from it lets them resume (decision 027).
  if (kind === "stop") await revokeCallConsent(tx, { phoneE164: input.from, source: "text", statement: reply }, now);
  else await restoreCallConsent(tx, { phoneE164: input.from, statement: reply }, now);
  // STOP reaches every Storyteller on the number; YES only those we asked (or who had stopped).
  const affected = kind === "stop" ? storytellers : storytellers.filter((s) => s.sms_consent !== "none");
  for (const storyteller of affected) {
    const shown = await tx
      .selectFrom("sms_consents")
      .select("text_shown")
      .where("storyteller_id", "=", storyteller.id)
      .where("status", "in", ["requested", "granted"])
      .where("replied_at", "is", null)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    await tx
      .insertInto("sms_consents")
      .values({
        storyteller_id: storyteller.id,
        phone_e164: input.from,
        text_shown: shown?.text_shown ?? "",
        reply,
        status,
        replied_at: now,
      })
      .execute();
  }
  if (!affected.length) {
    // Nobody we asked uses the number: the answer is still kept, so a STOP is never forgotten.
    await tx
      .insertInto("sms_consents")
      .values({ storyteller_id: null, phone_e164: input.from, text_shown: "", reply, status, replied_at: now })
      .execute();
    return { language, asker: null, superseded: false };
  }
  await tx
    .updateTable("storytellers")
    .set({ sms_consent: status, updated_at: now })
    .where(
      "id",
      "in",
      affected.map((s) => s.id),
    )
    .execute();
  return { language, asker: affected[0].asker, superseded: false };
}
