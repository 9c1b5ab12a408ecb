import { sql } from "kysely";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { enqueueJob, enqueueJobs, sendQueueOf } from "~/services/jobs.server";
import {
  queueEmail,
  queueMessagesWithoutJobs,
  queueSms,
  queueWhatsApp,
  type ClaimedMessage,
  type SendDeps,
  sendOutboxBatch,
  sendOutboxMessage,
} from "~/services/outbox.server";
import { composePromptEmail, composePromptSms, composePromptWhatsApp } from "~/services/prompt-messages.server";
import { replyAddress } from "~/services/reply-address.server";
import { signCapability } from "~/services/tokens.server";
import { deliveryMethods } from "~/utils/storyteller-choices";
import { displayLine, storytellerVoiceLine } from "~/utils/voice-lines.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Channel } from "../../db/schema";
import { ensureAnswerCodes, formatAnswerCode } from "./answer-code.server";
import { notifyPromptsSent } from "./notification.server";
import { isInsideSendingWindow, lateSendDecision, nextWindowOpening } from "./schedule";
import { contactColumns, reachColumns, type StorytellerReach } from "./storyteller-columns.server";

export type DeliveryDeps = SendDeps & { config: Config };

/** A pending delivery this old is dropped; the scheduler makes a fresh one on the next send date. */
const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export type DeliveryOutcome = "sent" | "failed" | "deferred" | "cancelled" | "nothing-to-do";

// ?lng= opens the page in the Storyteller's language whatever their browser says.
export const recordUrl = (config: Pick<Config, "APP_URL">, token: string, language: string) =>
  `${config.APP_URL}/record/${token}?lng=${language}`;
export const unsubscribeUrl = (config: Pick<Config, "APP_URL">, token: string, language: string) =>
  `${config.APP_URL}/unsubscribe/${token}?lng=${language}`;

/** What "Send now" did: queued, and when it reaches her if quiet hours hold it (08:00 there), or why not. */
export type SendNowResult =
  | { outcome: "queued"; heldUntil: Date | null; nickname: string; timeZone: string }
  | { outcome: "unreachable" | "already-sent" };

/**
 * "Send now" from the Scheduled tab: a ledger row for the prompt (or the one already waiting) and
 * the same send job the scheduler uses, due at once; a text, WhatsApp or call outside 08:00–21:00
 * her time is due when that window opens, so the page can say when it will reach her.
 */
export async function queueSendNow(db: DbOrTx, promptId: string, now = new Date()): Promise<SendNowResult> {
  return inTransaction(db, async (tx) => {
    const prompt = await tx
      .selectFrom("prompts")
      .innerJoin("storytellers as s", "s.id", "prompts.storyteller_id")
      .select(["prompts.id", "prompts.sent_at", "s.nickname", "s.time_zone", ...reachColumns])
      .where("prompts.id", "=", promptId)
      .executeTakeFirst();
    if (!prompt || prompt.sent_at) return { outcome: "already-sent" };
    if (!canReceive(prompt)) return { outcome: "unreachable" };
    const held = prompt.delivery_method !== "email" && !isInsideSendingWindow(now, prompt.time_zone);
    const due = held ? nextWindowOpening(now, prompt.time_zone) : now;
    await deliverNow(tx, { promptId: prompt.id, channel: prompt.delivery_method, purpose: "prompt" }, due, held);
    return { outcome: "queued", heldUntil: held ? due : null, nickname: prompt.nickname, timeZone: prompt.time_zone };
  });
}

/**
 * A ledger row due at `now` and its send job, in the caller's transaction: "Send now" (purpose
 * prompt) and a re-record's new link (purpose resend). A row `held` for quiet hours is due, and its
 * job runs, when they end (`now` is then that time). A prompt's row is reopened only while it has not
 * gone; a resend's row is reused for every new request unless one is being sent this moment.
 */
export async function deliverNow(
  tx: DbOrTx,
  target: { promptId: string; channel: Channel; purpose: "prompt" | "resend" },
  now: Date,
  held = false,
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
  await enqueueJob(
    tx,
    "delivery__send",
    { deliveryId: delivery.id, sendNow: true },
    { queueName: sendQueueOf(target.channel), runAt: held ? now : undefined },
  );
}

/** Why nothing may be sent to the Storyteller now (the owner reads it on their page), or null. */
export type ReachProblem =
  "unsubscribed" | "undeliverable" | "callOptedOut" | "callAwaitingConsent" | "optedOut" | "awaitingConsent";

export function reachProblem(s: StorytellerReach): ReachProblem | null {
  if (s.delivery_method === "email")
    return s.unsubscribed_at ? "unsubscribed" : s.email_undeliverable_at ? "undeliverable" : null;
  if (s.delivery_method === "call")
    return s.call_consent === "revoked" ? "callOptedOut" : s.call_consent !== "granted" ? "callAwaitingConsent" : null;
  // WhatsApp's consent is kept as texts' is (decision 041).
  return s.sms_consent === "revoked" ? "optedOut" : s.sms_consent !== "granted" ? "awaitingConsent" : null;
}

// The form's choices (app/utils, read by the browser, may not import db/) are the database's
// channels, no more and no fewer: tsc stops here when a migration changes them.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _everyChannel: Same<(typeof deliveryMethods)[number], Channel> = true;

/** Whether anything may be sent to the Storyteller now. */
export const canReceive = (s: StorytellerReach) => reachProblem(s) === null;

/**
 * The send job's work for one ledger row. Under a row lock it re-checks everything that may have
 * changed since the row was made (prompt still queued, Storyteller still reachable and consenting,
 * schedule not paused, inside 08:00–21:00 local, not stale), marks the prompt sent and writes the
 * message, then hands it to the provider through the outbox (which reconciles a crash instead of
 * resending, and re-checks STOP right before a text goes). A row already "sending" belongs to an
 * attempt that died: only the outbox step runs.
 */
export async function sendDelivery(
  deps: DeliveryDeps,
  deliveryId: string,
  {
    sendNow = false,
    lastAttempt = false,
    claimant,
    now = new Date(),
  }: { sendNow?: boolean; lastAttempt?: boolean; claimant?: string; now?: Date } = {},
): Promise<DeliveryOutcome> {
  const prepared = await inTransaction(deps.db, (tx) => prepareDeliveries(deps, tx, [deliveryId], sendNow, now));
  const outcome = prepared.get(deliveryId) ?? "nothing-to-do";
  if (typeof outcome !== "object") return outcome;
  return sendOutboxMessage(deps, outcome.outboxMessageId, { lastAttempt, claimant });
}

/**
 * The scheduler's batch job: sendDelivery for many ledger rows of one channel, with the same
 * re-checks, in one transaction of set-based writes, then one provider call per 500 emails (texts
 * one at a time, in the texts queue). Returns how many rows ended each way.
 */
export async function sendDeliveryBatch(
  deps: DeliveryDeps,
  deliveryIds: string[],
  { lastAttempt = false, claimant, now = new Date() }: { lastAttempt?: boolean; claimant?: string; now?: Date } = {},
): Promise<Record<DeliveryOutcome, number>> {
  await mintCodesAhead(deps, deliveryIds);
  const prepared = await inTransaction(deps.db, (tx) =>
    prepareDeliveries(deps, tx, deliveryIds, false, now, { claimant: claimant ?? "batch" }),
  );
  const counts: Record<DeliveryOutcome, number> = {
    sent: 0,
    failed: 0,
    deferred: 0,
    cancelled: 0,
    "nothing-to-do": 0,
  };
  const claimed: ClaimedMessage[] = [];
  const ids: string[] = [];
  for (const id of deliveryIds) {
    const outcome = prepared.get(id) ?? "nothing-to-do";
    if (typeof outcome !== "object") counts[outcome]++;
    else if (outcome.claimed) claimed.push(outcome.claimed);
    else ids.push(outcome.outboxMessageId);
  }
  const sent = await sendOutboxBatch(deps, { claimed, ids }, { lastAttempt, claimant: claimant ?? "batch" });
  for (const [outcome, n] of Object.entries(sent)) counts[outcome as DeliveryOutcome] += n;
  return counts;
}

/**
 * The batch's answer codes, made in a short transaction of their own before the batch's: the
 * minting lock is then held for one statement's time, not for the whole batch, so batches still
 * overlap. A code made for a message that is then not sent waits for its next send (it only ever
 * opens a sent prompt) and counts as open meanwhile, which only errs on the safe side.
 */
async function mintCodesAhead(deps: DeliveryDeps, deliveryIds: string[]) {
  if (!deps.config.voiceNumber || !deliveryIds.length) return;
  await inTransaction(deps.db, async (tx) => {
    const rows = await tx
      .selectFrom("deliveries as d")
      .innerJoin("prompts as p", "p.id", "d.prompt_id")
      .select("d.prompt_id")
      .where("d.id", "in", deliveryIds)
      .where("d.status", "=", "pending")
      // What review() would send: a prompt not sent yet, or a resend while a new recording is asked for.
      .where((eb) =>
        eb.or([
          eb.and([eb("d.purpose", "=", "prompt"), eb("p.sent_at", "is", null)]),
          eb.and([eb("d.purpose", "=", "resend"), eb("p.rerecord_requested_at", "is not", null)]),
        ]),
      )
      .execute();
    await ensureAnswerCodes(
      tx,
      deps.config,
      rows.map((r) => r.prompt_id),
    );
  });
}

/**
 * The schedules whose empty-queue note this send may clear, locked before the ledger rows: the
 * tick takes schedules first and then writes ledger rows, so a send taking them the other way
 * round waited on a tick that waited on it (decision 054). Only these are cleared afterwards.
 */
async function lockEmptyQueueNotes(tx: DbOrTx, deliveryIds: string[]) {
  const rows = await tx
    .selectFrom("schedules as sc")
    .innerJoin("prompts as p", "p.storyteller_id", "sc.storyteller_id")
    .innerJoin("deliveries as d", "d.prompt_id", "p.id")
    .select("sc.storyteller_id")
    .where("d.id", "in", deliveryIds)
    .where("d.purpose", "=", "prompt")
    .where("sc.empty_queue_notified_at", "is not", null)
    .orderBy("sc.storyteller_id")
    .forUpdate("sc")
    .execute();
  return new Set(rows.map((row) => row.storyteller_id));
}

type LedgerRow = Awaited<ReturnType<typeof lockLedgerRows>>[number];

function lockLedgerRows(tx: DbOrTx, deliveryIds: string[]) {
  return tx
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
      ...reachColumns,
      ...contactColumns,
      "sc.paused_at",
      sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker_name"),
      sql<string | null>`coalesce(asker.profile_pic_key, owner.profile_pic_key)`.as("asker_photo"),
    ])
    .where("d.id", "in", deliveryIds)
    .orderBy("d.id")
    .forUpdate("d")
    .execute();
}

type Review =
  | { outcome: "nothing-to-do" }
  | { outcome: "resume"; outboxMessageId: string }
  | { outcome: "cancel"; reason: string }
  | { outcome: "defer"; retryAt: Date }
  | { outcome: "send" };

/** Whether this site can send on a channel now: calls need a voice line, WhatsApp its sender (or the outbox). */
function channelOn(config: Pick<Config, "voiceNumber" | "whatsappOn">, channel: LedgerRow["channel"]) {
  if (channel === "call") return Boolean(config.voiceNumber);
  if (channel === "whatsapp") return config.whatsappOn;
  return true;
}

/** What the send job does with one locked ledger row: every re-check of decision 008, in one place. */
function review(
  row: LedgerRow,
  sendNow: boolean,
  now: Date,
  config: Pick<Config, "voiceNumber" | "whatsappOn">,
  lateSend = lateSendDecision,
): Review {
  if (row.status === "sending" && row.outbox_message_id) {
    // An attempt that died, retried hours later (a worker's backoff): a text or call it had not
    // placed must not go out at night. It waits for 08:00 there; the outbox still asks the provider
    // first, so one that did go out is recorded, never sent twice.
    if (row.channel !== "email" && !isInsideSendingWindow(now, row.time_zone))
      return { outcome: "defer", retryAt: nextWindowOpening(now, row.time_zone) };
    return { outcome: "resume", outboxMessageId: row.outbox_message_id };
  }
  if (row.status !== "pending") return { outcome: "nothing-to-do" };
  const cancel = (reason: string): Review => ({ outcome: "cancel", reason });
  // A resend (the owner asked for a new recording) goes to a prompt already sent, while asked for.
  const resend = row.purpose === "resend";
  if (resend ? !row.rerecord_requested_at : row.prompt_sent_at)
    return cancel(resend ? "re-record no longer requested" : "already sent");
  if (row.channel !== row.delivery_method) return cancel("delivery method changed");
  if (row.channel === "email" && row.unsubscribed_at) return cancel("unsubscribed");
  if (row.channel === "email" && row.email_undeliverable_at) return cancel("email undeliverable");
  if (!channelOn(config, row.channel))
    return cancel(row.channel === "call" ? "calls not available" : "WhatsApp not available");
  if ((row.channel === "sms" || row.channel === "whatsapp") && row.sms_consent !== "granted")
    return cancel(row.sms_consent === "revoked" ? "opted out" : "waiting for consent");
  if (row.channel === "call" && row.call_consent !== "granted")
    return cancel(row.call_consent === "revoked" ? "opted out of calls" : "waiting for consent");
  if (!sendNow && row.paused_at) return cancel("paused");
  if (!sendNow && now.getTime() - row.scheduled_for.getTime() > STALE_AFTER_MS) return cancel("stale");

  // "Send now" holds back texts and calls outside 08:00–21:00 (an email waits in the inbox).
  const retryAt = sendNow
    ? row.channel !== "email" && !isInsideSendingWindow(now, row.time_zone)
      ? nextWindowOpening(now, row.time_zone)
      : null
    : (() => {
        const decision = lateSend(row.scheduled_for, now, row.time_zone);
        return decision.send ? null : decision.retryAt;
      })();
  return retryAt ? { outcome: "defer", retryAt } : { outcome: "send" };
}

async function composeFor(deps: DeliveryDeps, row: LedgerRow, codes: Map<string, string>, now: Date) {
  const recordToken = await signCapability(deps.config, "record", row.prompt_id, now);
  const input = {
    callIn: callInFor(deps.config, row, codes.get(row.prompt_id)),
    language: row.language,
    storytellerName: row.first_name,
    askerName: row.asker_name,
    promptText: row.prompt_text,
    recordUrl: recordUrl(deps.config, recordToken, row.language),
    photoUrl: row.asker_photo ? `${deps.config.APP_URL}/record/${recordToken}/photo` : null,
  };
  if (row.channel === "call") {
    const t = await getServerT(row.language, { config: deps.config }, "phone");
    return {
      channel: "call" as const,
      call: {
        to: row.phone_e164!,
        // What the outbox shows of the call (and what the machine message says), not a script.
        text: t("callOut.outbox", {
          name: row.first_name,
          asker: row.asker_name,
          prompt: row.prompt_text,
          number: input.callIn?.number ?? "",
          code: input.callIn?.code ?? "",
        }),
      },
    };
  }
  if (row.channel === "whatsapp")
    return {
      channel: "whatsapp" as const,
      whatsapp: await composePromptWhatsApp(deps.config, { ...input, callIn: null, to: row.phone_e164! }),
    };
  return row.channel === "email"
    ? {
        channel: "email" as const,
        email: await composePromptEmail(deps.config, {
          ...input,
          to: row.email!,
          replyTo: replyAddress(deps.config, row.prompt_id),
          unsubscribeUrl: unsubscribeUrl(
            deps.config,
            await signCapability(deps.config, "unsubscribe", row.storyteller_id, now),
            row.language,
          ),
        }),
      }
    : { channel: "sms" as const, sms: await composePromptSms(deps.config, { ...input, to: row.phone_e164! }) };
}

/** A message to send: stored already claimed by this job (emails of a batch), or to be claimed. */
type Prepared = DeliveryOutcome | { outboxMessageId: string; claimed?: ClaimedMessage };

/**
 * Locks the ledger rows, reviews each, and writes the results set-based in the caller's
 * transaction: cancelled rows with their reason; deferred rows moved to their new time with their
 * own send job (the same job key "Send now" uses); for the rest, the messages (no jobs: the caller
 * sends them), the prompts marked sent, the rows "sending", the family told, the empty-queue note
 * cleared.
 */
async function prepareDeliveries(
  deps: DeliveryDeps,
  tx: DbOrTx,
  deliveryIds: string[],
  sendNow: boolean,
  now: Date,
  { claimant }: { claimant?: string } = {},
): Promise<Map<string, Prepared>> {
  const result = new Map<string, Prepared>();
  const noted = await lockEmptyQueueNotes(tx, deliveryIds);
  const rows = await lockLedgerRows(tx, deliveryIds);
  const cancels: { id: string; reason: string }[] = [];
  const defers: { row: LedgerRow; retryAt: Date }[] = [];
  const sends: LedgerRow[] = [];
  // A batch shares a handful of (due time, zone) pairs; time zone arithmetic is the costly part.
  const decisions = new Map<string, ReturnType<typeof lateSendDecision>>();
  const lateSend = (plannedFor: Date, at: Date, timeZone: string) => {
    const key = `${plannedFor.getTime()} ${timeZone}`;
    let decision = decisions.get(key);
    if (!decision) decisions.set(key, (decision = lateSendDecision(plannedFor, at, timeZone)));
    return decision;
  };
  for (const row of rows) {
    const verdict = review(row, sendNow, now, deps.config, lateSend);
    if (verdict.outcome === "nothing-to-do") result.set(row.id, "nothing-to-do");
    else if (verdict.outcome === "resume") result.set(row.id, { outboxMessageId: verdict.outboxMessageId });
    else if (verdict.outcome === "cancel") cancels.push({ id: row.id, reason: verdict.reason });
    else if (verdict.outcome === "defer") defers.push({ row, retryAt: verdict.retryAt });
    else sends.push(row);
  }

  if (cancels.length) {
    await sql`
      update deliveries d set status = 'cancelled', error = v.reason, updated_at = ${now}
      from unnest(${cancels.map((c) => c.id)}::uuid[], ${cancels.map((c) => c.reason)}::text[]) as v(id, reason)
      where d.id = v.id`.execute(tx);
    for (const c of cancels) result.set(c.id, "cancelled");
  }

  if (defers.length) {
    await sql`
      update deliveries d set scheduled_for = v.retry_at, updated_at = ${now}
      from unnest(${defers.map((d) => d.row.id)}::uuid[], ${defers.map((d) => d.retryAt)}::timestamptz[]) as v(id, retry_at)
      where d.id = v.id`.execute(tx);
    await enqueueJobs(
      tx,
      "delivery__send",
      defers.map(({ row, retryAt }) => ({
        payload: { deliveryId: row.id, sendNow },
        options: { runAt: retryAt, queueName: sendQueueOf(row.channel) },
      })),
    );
    for (const d of defers) result.set(d.row.id, "deferred");
  }

  if (!sends.length) return result;
  // Every code the messages print, made in one go (decision 022).
  const codes = deps.config.voiceNumber
    ? await ensureAnswerCodes(
        tx,
        deps.config,
        sends.map((row) => row.prompt_id),
      )
    : new Map<string, string>();
  const messages = [];
  for (const row of sends) messages.push(await composeFor(deps, row, codes, now));
  const stored = await queueMessagesWithoutJobs(tx, messages, { claimant });
  const outboxIds = stored.map((m) => m.id);
  const prompts = sends.filter((row) => row.purpose !== "resend");
  if (prompts.length)
    await tx
      .updateTable("prompts")
      .set({ sent_at: now, updated_at: now })
      .where(
        "id",
        "in",
        prompts.map((row) => row.prompt_id),
      )
      .execute();
  await sql`
    update deliveries d set status = 'sending', outbox_message_id = v.outbox_message_id, attempts = d.attempts + 1, updated_at = ${now}
    from unnest(${sends.map((row) => row.id)}::uuid[], ${outboxIds}::uuid[]) as v(id, outbox_message_id)
    where d.id = v.id`.execute(tx);
  if (prompts.length) {
    await notifyPromptsSent(
      tx,
      prompts.map((row) => ({ storytellerId: row.storyteller_id, promptId: row.prompt_id })),
    );
    const cleared = [...new Set(prompts.map((row) => row.storyteller_id))].filter((id) => noted.has(id));
    if (cleared.length)
      await tx
        .updateTable("schedules")
        .set({ empty_queue_notified_at: null })
        .where("storyteller_id", "in", cleared)
        .execute();
  }
  stored.forEach((message, i) =>
    result.set(sends[i].id, {
      outboxMessageId: message.id,
      claimed: message.status === "sending" ? message : undefined,
    }),
  );
  return result;
}

/** "Or call … and enter …" for a prompt's messages (null when her country has no line). */
function callInFor(config: Config, storyteller: { phone_e164: string | null; time_zone: string }, code?: string) {
  const line = storytellerVoiceLine(config, storyteller);
  if (!line || !code) return null;
  return { number: displayLine(line), code: formatAnswerCode(code) };
}

/**
 * "Check your setup": the user gets the very message a Storyteller would (email, text or WhatsApp),
 * with a sample question and a link to the sample record page. Goes through the outbox like everything else.
 */
export async function queueTestPrompt(
  db: DbOrTx,
  config: Config,
  user: { first_name: string; email: string; language: "en" | "hi" },
  target: { channel: "email" } | { channel: "sms" | "whatsapp"; phoneE164: string },
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
  } else if (target.channel === "whatsapp") {
    await queueWhatsApp(db, await composePromptWhatsApp(config, { ...input, to: target.phoneE164 }));
  } else {
    await queueSms(db, await composePromptSms(config, { ...input, to: target.phoneE164 }));
  }
}
