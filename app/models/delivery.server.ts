import { sql } from "kysely";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { enqueueJob } from "~/services/jobs.server";
import { type SendDeps, queueEmail, queueSms, sendOutboxMessage } from "~/services/outbox.server";
import { composePromptEmail, composePromptSms } from "~/services/prompt-messages.server";
import { signCapability } from "~/services/tokens.server";
import { displayPhoneNumber } from "~/utils/phone-display";
import { type DbOrTx, inTransaction } from "../../db/client";
import { ensureAnswerCode, formatAnswerCode } from "./answer-code.server";
import { notifyStorytellerEvent } from "./notification.server";
import { isInsideSendingWindow, lateSendDecision, nextWindowOpening } from "./schedule";

export type DeliveryDeps = SendDeps & { config: Config };

/** A pending delivery this old is dropped; the scheduler makes a fresh one on the next send date. */
const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export type DeliveryOutcome = "sent" | "failed" | "deferred" | "cancelled" | "nothing-to-do";

// ?lng= opens the page in the Storyteller's language whatever their browser says.
export const recordUrl = (config: Pick<Config, "APP_URL">, token: string, language: string) =>
  `${config.APP_URL}/record/${token}?lng=${language}`;
export const unsubscribeUrl = (config: Pick<Config, "APP_URL">, token: string, language: string) =>
  `${config.APP_URL}/unsubscribe/${token}?lng=${language}`;

/**
 * "Send now" from the Scheduled tab: a ledger row for the prompt (or the one already waiting) and
 * the same send job the scheduler uses, due at once. Quiet hours still hold back texts.
 */
export async function queueSendNow(
  db: DbOrTx,
  promptId: string,
  now = new Date(),
): Promise<"queued" | "unreachable" | "already-sent"> {
  return inTransaction(db, async (tx) => {
    const prompt = await tx
      .selectFrom("prompts")
      .innerJoin("storytellers as s", "s.id", "prompts.storyteller_id")
      .select([
        "prompts.id",
        "prompts.sent_at",
        "s.delivery_method",
        "s.unsubscribed_at",
        "s.email_undeliverable_at",
        "s.sms_consent",
      ])
      .where("prompts.id", "=", promptId)
      .executeTakeFirst();
    if (!prompt || prompt.sent_at) return "already-sent";
    if (!canReceive(prompt)) return "unreachable";
    await deliverNow(tx, { promptId: prompt.id, channel: prompt.delivery_method, purpose: "prompt" }, now);
    return "queued";
  });
}

/**
 * A ledger row due now and its send job, in the caller's transaction: "Send now" (purpose prompt)
 * and a re-record's new link (purpose resend). A prompt's row is reopened only while it has not
 * gone; a resend's row is reused for every new request unless one is being sent this moment.
 */
export async function deliverNow(
  tx: DbOrTx,
  target: { promptId: string; channel: "email" | "sms"; purpose: "prompt" | "resend" },
  now: Date,
) {
  const delivery = await tx
    .insertInto("deliveries")
    .values({ prompt_id: target.promptId, channel: target.channel, purpose: target.purpose, scheduled_for: now })
    .onConflict((oc) =>
      oc
        .columns(["prompt_id", "channel", "purpose"])
        .doUpdateSet({
          status: "pending",
          scheduled_for: now,
          error: null,
          outbox_message_id: null,
          provider_message_id: null,
          sent_at: null,
          updated_at: now,
        })
        .where(
          "deliveries.status",
          "in",
          target.purpose === "prompt" ? ["pending", "cancelled"] : ["pending", "cancelled", "sent", "failed"],
        ),
    )
    .returning("id")
    .executeTakeFirst();
  if (!delivery) return; // already on its way
  await enqueueJob(tx, "delivery__send", { deliveryId: delivery.id, sendNow: true });
}

/** Whether anything may be sent to the Storyteller now (the owner sees why not on their page). */
export function canReceive(s: {
  delivery_method: "email" | "sms";
  unsubscribed_at: Date | null;
  email_undeliverable_at: Date | null;
  sms_consent: string;
}) {
  return s.delivery_method === "email" ? !s.unsubscribed_at && !s.email_undeliverable_at : s.sms_consent === "granted";
}

/**
 * The send job's work for one ledger row. Under a row lock it re-checks everything that may have
 * changed since the row was made (prompt still queued, Storyteller still reachable and consenting,
 * schedule not paused, inside 08:00–21:00 local, not stale), marks the prompt sent and writes the
 * message, then hands it to the provider through the outbox (which reconciles a crash instead of
 * resending). A row already "sending" belongs to an attempt that died: only the outbox step runs.
 */
export async function sendDelivery(
  deps: DeliveryDeps,
  deliveryId: string,
  {
    sendNow = false,
    lastAttempt = false,
    now = new Date(),
  }: { sendNow?: boolean; lastAttempt?: boolean; now?: Date } = {},
): Promise<DeliveryOutcome> {
  const prepared = await inTransaction(deps.db, (tx) => prepareDelivery(deps, tx, deliveryId, sendNow, now));
  if (typeof prepared !== "object") return prepared;
  return sendOutboxMessage(deps, prepared.outboxMessageId, { lastAttempt });
}

async function prepareDelivery(
  deps: DeliveryDeps,
  tx: DbOrTx,
  deliveryId: string,
  sendNow: boolean,
  now: Date,
): Promise<DeliveryOutcome | { outboxMessageId: string }> {
  const row = await tx
    .selectFrom("deliveries as d")
    .innerJoin("prompts as p", "p.id", "d.prompt_id")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .leftJoin("schedules as sc", "sc.storyteller_id", "s.id")
    .select([
      "d.id",
      "d.status",
      "d.channel",
      "d.purpose",
      "d.scheduled_for",
      "d.outbox_message_id",
      "d.created_at",
      "p.id as prompt_id",
      "p.text as prompt_text",
      "p.sent_at as prompt_sent_at",
      "p.rerecord_requested_at",
      "s.id as storyteller_id",
      "s.owner_id",
      "s.first_name",
      "s.delivery_method",
      "s.email",
      "s.phone_e164",
      "s.time_zone",
      "s.language",
      "s.unsubscribed_at",
      "s.email_undeliverable_at",
      "s.sms_consent",
      "sc.paused_at",
      sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker_name"),
      sql<string | null>`coalesce(asker.profile_pic_key, owner.profile_pic_key)`.as("asker_photo"),
    ])
    .where("d.id", "=", deliveryId)
    .forUpdate("d")
    .executeTakeFirst();
  if (!row) return "nothing-to-do"; // the prompt or Storyteller was deleted
  if (row.status === "sending" && row.outbox_message_id) return { outboxMessageId: row.outbox_message_id };
  if (row.status !== "pending") return "nothing-to-do";

  const cancel = async (reason: string): Promise<DeliveryOutcome> => {
    await tx
      .updateTable("deliveries")
      .set({ status: "cancelled", error: reason, updated_at: now })
      .where("id", "=", row.id)
      .execute();
    return "cancelled";
  };
  // A resend (the owner asked for a new recording) goes to a prompt already sent, while asked for.
  const resend = row.purpose === "resend";
  if (resend ? !row.rerecord_requested_at : row.prompt_sent_at)
    return cancel(resend ? "re-record no longer requested" : "already sent");
  if (row.channel !== row.delivery_method) return cancel("delivery method changed");
  if (row.channel === "email" && row.unsubscribed_at) return cancel("unsubscribed");
  if (row.channel === "email" && row.email_undeliverable_at) return cancel("email undeliverable");
  if (row.channel === "sms" && row.sms_consent !== "granted")
    return cancel(row.sms_consent === "revoked" ? "opted out" : "waiting for consent");
  if (!sendNow && row.paused_at) return cancel("paused");
  if (!sendNow && now.getTime() - row.scheduled_for.getTime() > STALE_AFTER_MS) return cancel("stale");

  const retryAt = sendNow
    ? row.channel === "sms" && !isInsideSendingWindow(now, row.time_zone)
      ? nextWindowOpening(now, row.time_zone)
      : null
    : (() => {
        const decision = lateSendDecision(row.scheduled_for, now, row.time_zone);
        return decision.send ? null : decision.retryAt;
      })();
  if (retryAt) {
    await tx
      .updateTable("deliveries")
      .set({ scheduled_for: retryAt, updated_at: now })
      .where("id", "=", row.id)
      .execute();
    await enqueueJob(tx, "delivery__send", { deliveryId: row.id, sendNow }, { runAt: retryAt });
    return "deferred";
  }

  const recordToken = await signCapability(deps.config, "record", row.prompt_id, now);
  const input = {
    callIn: await callInFor(tx, deps.config, row.prompt_id),
    language: row.language,
    storytellerName: row.first_name,
    askerName: row.asker_name,
    promptText: row.prompt_text,
    recordUrl: recordUrl(deps.config, recordToken, row.language),
    photoUrl: row.asker_photo ? `${deps.config.APP_URL}/record/${recordToken}/photo` : null,
  };
  const outboxMessageId =
    row.channel === "email"
      ? await queueEmail(
          tx,
          await composePromptEmail(deps.config, {
            ...input,
            to: row.email!,
            unsubscribeUrl: unsubscribeUrl(
              deps.config,
              await signCapability(deps.config, "unsubscribe", row.storyteller_id, now),
              row.language,
            ),
          }),
          { withJob: false },
        )
      : await queueSms(tx, await composePromptSms(deps.config, { ...input, to: row.phone_e164! }), { withJob: false });

  if (!resend)
    await tx.updateTable("prompts").set({ sent_at: now, updated_at: now }).where("id", "=", row.prompt_id).execute();
  await tx
    .updateTable("deliveries")
    .set({ status: "sending", outbox_message_id: outboxMessageId, attempts: sql`attempts + 1`, updated_at: now })
    .where("id", "=", row.id)
    .execute();
  if (!resend) {
    await notifyStorytellerEvent(tx, deps.config, {
      type: "new",
      storytellerId: row.storyteller_id,
      promptId: row.prompt_id,
    });
    await tx
      .updateTable("schedules")
      .set({ empty_queue_notified_at: null })
      .where("storyteller_id", "=", row.storyteller_id)
      .execute();
  }
  return { outboxMessageId };
}

/** "Or call … and enter …" for a prompt's messages, its code made now (null when answering by phone is off). */
export async function callInFor(tx: DbOrTx, config: Config, promptId: string) {
  if (!config.voiceNumber) return null;
  return {
    number: displayPhoneNumber(config.voiceNumber),
    code: formatAnswerCode(await ensureAnswerCode(tx, config, promptId)),
  };
}

/**
 * "Check your setup": the user gets the very message a Storyteller would, with a sample question
 * and a link to the sample record page. Goes through the outbox like everything else.
 */
export async function queueTestPrompt(
  db: DbOrTx,
  config: Config,
  user: { first_name: string; email: string; language: "en" | "hi" },
  target: { channel: "email" } | { channel: "sms"; phoneE164: string },
) {
  const t = await getServerT(user.language, { config }, "delivery");
  const input = {
    language: user.language,
    storytellerName: user.first_name,
    askerName: user.first_name,
    promptText: t("testPrompt"),
    recordUrl: `${config.APP_URL}/record/sample?lng=${user.language}`,
    photoUrl: null,
  };
  if (target.channel === "email") {
    await queueEmail(
      db,
      await composePromptEmail(config, {
        ...input,
        to: user.email,
        unsubscribeUrl: `${config.APP_URL}/dashboard/user/account`,
      }),
    );
  } else {
    await queueSms(db, await composePromptSms(config, { ...input, to: target.phoneE164 }));
  }
}
