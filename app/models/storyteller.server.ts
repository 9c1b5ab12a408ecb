import { type Expression, sql } from "kysely";
import { DateTime, IANAZone } from "luxon";
import type { Config } from "~/config.server";
import { methodRefusal, phoneMethods } from "~/utils/phone-methods.server";
import { isCountryCode, parsePhone } from "~/utils/phone.server";
import { firstPromptDateProblem, type ScheduleInput, type StorytellerInput } from "~/utils/storyteller-schema";
import type { DbOrTx } from "../../db/client";
import { inTransaction } from "../../db/client";
import { preparedQuery } from "../../db/prepared";
import type { DeliveryMethod } from "../../db/schema";
import { askedStorytellerIds, ownedStorytellerIds, sharedAnswer, visibleStorytellerIds } from "./access.server";
import { type AnswerServices, deleteWithAnswerFiles } from "./answer.server";
import { grantCallConsent } from "./call-consent.server";
import { emailOptedOut } from "./capability-links.server";
import { type Frequency, firstSendAt, nextSendAt } from "./schedule";
import { grantWhatsAppConsent, requestSmsConsent } from "./sms-consent.server";
import { contactColumns, nameColumns, reachColumns } from "./storyteller-columns.server";

/**
 * The overview's cards: every Storyteller the user may see, with next/last prompt and answers, in one
 * query; not the is_self row of their own stories, who is not someone they ask (decision 017).
 */
export async function listStorytellerCards(db: DbOrTx, userId: string) {
  return storytellerCardsQuery(db, { userId });
}

// The overview's every load: built and compiled once (decision 056).
const storytellerCardsQuery = preparedQuery(["userId"], (db, { userId }: { userId: string }) =>
  db
    .selectFrom("storytellers as s")
    .select((eb) => [
      "s.id",
      ...nameColumns,
      ...reachColumns,
      nextPromptQuery(db, eb.ref("s.id")).as("next_prompt"),
      lastSentPromptQuery(db, eb.ref("s.id")).as("last_sent_prompt"),
      eb
        .selectFrom("answers as a")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("a.storyteller_id", "=", "s.id")
        .as("answered"),
    ])
    .where("s.id", "in", visibleStorytellerIds(db, userId))
    .where("s.is_self", "=", false)
    .orderBy("s.created_at"),
);

export const BOARD_MAX_COLUMNS = 16;
/** A column shows the next prompts in its queue and the latest sent, this many of each; its page has all. */
export const BOARD_CARDS_PER_KIND = 10;

// The board's columns and how many there are: fixed shapes, compiled once (decision 056).
const boardColumnsQuery = preparedQuery(["userId"], (db, { userId }: { userId: string }) =>
  db
    .selectFrom("storytellers as s")
    .leftJoin("schedules as sc", "sc.storyteller_id", "s.id")
    .select([
      "s.id",
      "s.nickname",
      "s.time_zone",
      "sc.first_prompt_date",
      "sc.frequency",
      "sc.next_send_at",
      "sc.paused_at",
    ])
    .where("s.id", "in", visibleStorytellerIds(db, userId))
    .where("s.is_self", "=", false)
    .orderBy("s.created_at")
    .limit(BOARD_MAX_COLUMNS),
);
const boardTotalQuery = preparedQuery(["userId"], (db, { userId }: { userId: string }) =>
  db
    .selectFrom("storytellers")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("id", "in", visibleStorytellerIds(db, userId))
    .where("is_self", "=", false),
);

/**
 * The board: up to 16 Storytellers as columns; in each, the next queued prompts (queue order) then
 * the latest sent, BOARD_CARDS_PER_KIND of each, and how many more the Storyteller's page lists.
 * Three queries, whatever the queues' length.
 */
export async function getBoard(db: DbOrTx, userId: string) {
  const [columns, [total]] = await Promise.all([boardColumnsQuery(db, { userId }), boardTotalQuery(db, { userId })]);
  // Per column, through the queue and sent indexes (their partial indexes also count them): the
  // first cards of each kind, not a window over every prompt that sorted each column's history.
  const cards = columns.length
    ? (
        await sql<{
          id: string;
          storyteller_id: string;
          text: string;
          sent_at: Date | null;
          skipped_at: Date | null;
          answered: boolean;
          shared: boolean;
          total: number;
        }>`
          select c.id, s.id as storyteller_id, c.text, c.sent_at, c.skipped_at, t.total,
            (a.id is not null) as answered, coalesce(${sharedAnswer("a")}, true) as shared
          from storytellers s
          cross join lateral (
            select (select count(*) from prompts where storyteller_id = s.id and sent_at is null)::int
              + (select count(*) from prompts where storyteller_id = s.id and sent_at is not null)::int as total
          ) t
          cross join lateral (
            (select id, text, sent_at, skipped_at, 0 as kind, queue_position as queued_order, null::timestamptz as sent_order
              from prompts where storyteller_id = s.id and sent_at is null
              order by queue_position limit ${BOARD_CARDS_PER_KIND})
            union all
            (select id, text, sent_at, skipped_at, 1, null, sent_at
              from prompts where storyteller_id = s.id and sent_at is not null
              order by sent_at desc limit ${BOARD_CARDS_PER_KIND})
          ) c
          left join answers a on a.prompt_id = c.id
          where s.id in (${sql.join(columns.map((column) => column.id))})
          order by s.id, c.kind, c.queued_order, c.sent_order desc`.execute(db)
      ).rows
    : [];
  // One pass groups the cards (they come sorted by column), not a filter over all of them per column.
  const cardsBy = new Map<string, typeof cards>();
  for (const card of cards) {
    const own = cardsBy.get(card.storyteller_id);
    if (own) own.push(card);
    else cardsBy.set(card.storyteller_id, [card]);
  }
  return {
    columns: columns.map(({ first_prompt_date, frequency, next_send_at, paused_at, ...column }) => {
      const own = cardsBy.get(column.id) ?? [];
      // The queued cards go out one per scheduled send, in queue order, from the next one on.
      const sendTimes = queuedSendTimes(
        paused_at || !first_prompt_date || !frequency ? null : { firstPromptDate: first_prompt_date, frequency },
        column.time_zone,
        next_send_at,
        own.filter((card) => !card.sent_at).length,
      );
      return {
        ...column,
        paused: Boolean(paused_at),
        // No card id: the board only shows them (a key by position serves), and 320 ids were a
        // third of the page's loader data.
        cards: own.map((card, index) => ({
          text: card.text,
          state: cardState(card),
          at: card.sent_at ?? sendTimes[index] ?? null,
        })),
        more: own.length ? Number(own[0].total) - own.length : 0,
      };
    }),
    hiddenColumns: Math.max(0, Number(total.n) - columns.length),
  };
}

/** What a board card says of its question: when it goes out, or what became of it once sent. */
export type BoardCardState = "queued" | "answered" | "answered-private" | "skipped" | "not-answered";

function cardState(card: { sent_at: Date | null; skipped_at: Date | null; answered: boolean; shared: boolean }) {
  if (!card.sent_at) return "queued" satisfies BoardCardState;
  if (card.answered) return (card.shared ? "answered" : "answered-private") satisfies BoardCardState;
  return (card.skipped_at ? "skipped" : "not-answered") satisfies BoardCardState;
}

/**
 * When each of the first `count` queued questions will be sent: the schedule's next send, then each
 * occurrence after it; none when paused or not scheduled.
 */
export function queuedSendTimes(
  rule: { firstPromptDate: string; frequency: Frequency } | null,
  timeZone: string,
  next: Date | null,
  count: number,
): Date[] {
  if (!rule || !next) return [];
  const times = [next];
  while (times.length < count) times.push(nextSendAt({ ...rule, timeZone }, times[times.length - 1]));
  return times;
}

/** A Storyteller the user owns (only owners edit or delete), with their schedule; null for anyone else. */
export async function getOwnedStoryteller(db: DbOrTx, userId: string, storytellerId: string) {
  const row = await db
    .selectFrom("storytellers as s")
    .innerJoin("schedules as sc", "sc.storyteller_id", "s.id")
    .select([
      "s.id",
      ...nameColumns,
      "s.delivery_method",
      ...contactColumns,
      "s.call_consent",
      "s.reaction_digest_on",
      "sc.first_prompt_date",
      "sc.frequency",
    ])
    .where("s.id", "=", storytellerId)
    .where("s.id", "in", ownedStorytellerIds(db, userId))
    .where("s.is_self", "=", false)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * id, nickname and language of a Storyteller with a page for the user (askedStorytellerIds: never
 * their own stories' is_self row), or null; for pages that need no more.
 */
export async function getVisibleStoryteller(db: DbOrTx, userId: string, storytellerId: string) {
  const row = await db
    .selectFrom("storytellers")
    .select(["id", "nickname", "language"])
    .where("id", "=", storytellerId)
    .where("id", "in", askedStorytellerIds(db, userId))
    .executeTakeFirst();
  return row ?? null;
}

export const isTimeZone = (zone: string) => IANAZone.isValidZone(zone);

/** Messages (translation keys) by field name, as conform's reply takes them. */
type FieldErrors = Record<string, string[]>;

type StorytellerColumns = {
  nickname: string;
  first_name: string;
  relationship: string;
  delivery_method: DeliveryMethod;
  email: string | null;
  phone_e164: string | null;
  time_zone: string;
  language: "en" | "hi";
};

/**
 * The checks the shared schema leaves to the server (a valid number of any country, the method
 * possible for it, a known time zone), then the form's fields as storytellers columns, the number
 * in E.164. Onboarding's first step checks with it before anything is written; saveStoryteller
 * checks with it again.
 */
export function checkStorytellerFields(
  input: StorytellerInput,
  config: Pick<Config, "voiceNumber" | "voiceLines" | "whatsappOn">,
): { ok: true; columns: StorytellerColumns } | { ok: false; fieldErrors: FieldErrors } {
  const country = isCountryCode(input.phoneCountry) ? input.phoneCountry : undefined;
  const phone = input.phone ? parsePhone(input.phone, country) : null;
  const fieldErrors: FieldErrors = {};
  // By email the number field is hidden: a number kept from before stays, a bad one is not held against her.
  if (input.phone && !phone && input.deliveryMethod !== "email")
    fieldErrors.phone = ["storytellers:errors.phoneInvalid"];
  if (input.deliveryMethod === "whatsapp" && !config.whatsappOn)
    fieldErrors.deliveryMethod = ["storytellers:errors.whatsappUnavailable"];
  else if (input.deliveryMethod === "call" && !config.voiceNumber)
    fieldErrors.deliveryMethod = ["storytellers:errors.callsUnavailable"];
  else if (phone && input.deliveryMethod !== "email") {
    const usable = phoneMethods(phone, config);
    if (!usable.includes(input.deliveryMethod)) fieldErrors.phone = methodRefusal(input.deliveryMethod, usable);
  }
  const phoneE164 = phone?.e164 ?? null;
  if (!isTimeZone(input.timeZone)) fieldErrors.timeZone = ["storytellers:errors.timeZoneInvalid"];
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  return {
    ok: true,
    columns: {
      nickname: input.nickname,
      first_name: input.firstName,
      relationship: input.relationship ?? "",
      delivery_method: input.deliveryMethod,
      email: input.email ?? null,
      phone_e164: phoneE164,
      time_zone: input.timeZone,
      language: input.language,
    },
  };
}

/** Today's date where the Storyteller lives (a known IANA zone): the first prompt date may not be earlier. */
export const todayIn = (timeZone: string, now = new Date()) =>
  DateTime.fromJSDate(now, { zone: timeZone }).toISODate()!;

/**
 * The first prompt date against today in the Storyteller's (checked) time zone: not past, at most a
 * year ahead; the date they already had (`current`, when editing) stands. Null when it holds. The
 * forms check it before anything is kept (onboarding's last step, Add Group's second, editing).
 */
export function checkFirstPromptDate(
  input: { firstPromptDate: string; timeZone: string },
  options: { now?: Date; current?: string } = {},
): FieldErrors | null {
  // An unknown zone has no today; checkStorytellerFields tells about the zone.
  if (!isTimeZone(input.timeZone)) return null;
  const problem = firstPromptDateProblem(input.firstPromptDate, todayIn(input.timeZone, options.now), options.current);
  return problem ? { firstPromptDate: [problem] } : null;
}

export type SaveStorytellerResult =
  | { ok: true; storytellerId: string }
  | { ok: false; problem: "invalid"; fieldErrors: FieldErrors }
  | { ok: false; problem: "not-found" };

/**
 * Writes a Storyteller's fields and schedule, as the shared form sends them: a new Storyteller for
 * `ownerId`, or an edit of one `userId` owns. All of it in one transaction, or nothing.
 *
 * A new one starts unsubscribed if its address ever unsubscribed (an unsubscribe is the address's).
 * On an edit, a changed schedule (first date, frequency or time zone) is recomputed from now, and a
 * new email address starts without the old one's bounce, unsubscribed only if it ever unsubscribed.
 * Texting a new number (a new Storyteller, a switch to texts, another number) first asks it for
 * consent. Calling one records the owner's word that the Storyteller agreed (the form's box), unless
 * that word already stands for this number (decision 027).
 */
export async function saveStoryteller(
  services: { db: DbOrTx; config: Config },
  target: { ownerId: string } | { userId: string; storytellerId: string },
  input: StorytellerInput & ScheduleInput,
  now = new Date(),
): Promise<SaveStorytellerResult> {
  const checked = checkStorytellerFields(input, services.config);
  if (!checked.ok) return { ok: false, problem: "invalid", fieldErrors: checked.fieldErrors };
  const { columns } = checked;
  const rule = { firstPromptDate: input.firstPromptDate, frequency: input.frequency, timeZone: columns.time_zone };
  return inTransaction(services.db, async (tx) => {
    if ("ownerId" in target) {
      const created = await tx
        .insertInto("storytellers")
        .values({
          owner_id: target.ownerId,
          ...columns,
          unsubscribed_at: (await emailOptedOut(tx, columns.email)) ? now : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await tx
        .insertInto("schedules")
        .values({
          storyteller_id: created.id,
          first_prompt_date: rule.firstPromptDate,
          frequency: rule.frequency,
          next_send_at: firstSendAt(rule),
        })
        .execute();
      if (columns.delivery_method === "sms") await requestSmsConsent(tx, services.config, created.id, now);
      if (columns.delivery_method === "whatsapp")
        await grantWhatsAppConsent(
          tx,
          services.config,
          { storytellerId: created.id, phoneE164: columns.phone_e164!, givenBy: target.ownerId },
          now,
        );
      if (columns.delivery_method === "call")
        await grantCallConsent(
          tx,
          services.config,
          { storytellerId: created.id, phoneE164: columns.phone_e164!, givenBy: target.ownerId },
          now,
        );
      return { ok: true, storytellerId: created.id };
    }

    const current = await tx
      .selectFrom("storytellers as s")
      .innerJoin("schedules as sc", "sc.storyteller_id", "s.id")
      .select([
        "s.id",
        "s.delivery_method",
        ...contactColumns,
        "s.call_consent",
        "sc.first_prompt_date",
        "sc.frequency",
      ])
      .where("s.id", "=", target.storytellerId)
      .where("s.id", "in", ownedStorytellerIds(tx, target.userId))
      .forUpdate()
      .executeTakeFirst();
    if (!current) return { ok: false, problem: "not-found" };
    const newEmail = (columns.email ?? "").toLowerCase() !== (current.email ?? "").toLowerCase();
    const needsSmsConsent =
      columns.delivery_method === "sms" &&
      (current.delivery_method !== "sms" || columns.phone_e164 !== current.phone_e164);
    // Only a new method or number needs the owner's word again; an opt-out is the number's to lift.
    const needsWhatsAppConsent =
      columns.delivery_method === "whatsapp" &&
      (current.delivery_method !== "whatsapp" || columns.phone_e164 !== current.phone_e164);
    const needsCallConsent =
      columns.delivery_method === "call" &&
      (current.delivery_method !== "call" || columns.phone_e164 !== current.phone_e164);
    await tx
      .updateTable("storytellers")
      .set({
        ...columns,
        // A new address starts clean, unless it unsubscribed before (an unsubscribe is the address's).
        ...(newEmail
          ? { unsubscribed_at: (await emailOptedOut(tx, columns.email)) ? now : null, email_undeliverable_at: null }
          : {}),
        ...(needsSmsConsent || needsWhatsAppConsent ? { sms_consent: "none" as const } : {}),
        updated_at: now,
      })
      .where("id", "=", current.id)
      .execute();
    const changed =
      rule.firstPromptDate !== current.first_prompt_date ||
      rule.frequency !== current.frequency ||
      rule.timeZone !== current.time_zone;
    await tx
      .updateTable("schedules")
      .set({
        first_prompt_date: rule.firstPromptDate,
        frequency: rule.frequency,
        ...(changed ? { next_send_at: nextSendAt(rule, now) } : {}),
        updated_at: now,
      })
      .where("storyteller_id", "=", current.id)
      .execute();
    if (needsSmsConsent) await requestSmsConsent(tx, services.config, current.id, now);
    if (needsWhatsAppConsent)
      await grantWhatsAppConsent(
        tx,
        services.config,
        { storytellerId: current.id, phoneE164: columns.phone_e164!, givenBy: target.userId },
        now,
      );
    if (needsCallConsent)
      await grantCallConsent(
        tx,
        services.config,
        { storytellerId: current.id, phoneE164: columns.phone_e164!, givenBy: target.userId },
        now,
      );
    return { ok: true, storytellerId: current.id };
  });
}

/** Pausing stops scheduled sends (the tick skips the row); resuming picks the next date after now. False for anyone but the owner. */
export async function setPaused(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  paused: boolean,
  now = new Date(),
): Promise<boolean> {
  const row = await db
    .selectFrom("schedules as sc")
    .innerJoin("storytellers as s", "s.id", "sc.storyteller_id")
    .select(["sc.first_prompt_date", "sc.frequency", "s.time_zone"])
    .where("sc.storyteller_id", "=", storytellerId)
    .where("sc.storyteller_id", "in", ownedStorytellerIds(db, userId))
    .executeTakeFirst();
  if (!row) return false;
  await db
    .updateTable("schedules")
    .set(
      paused
        ? { paused_at: now, updated_at: now }
        : {
            paused_at: null,
            next_send_at: nextSendAt(
              { firstPromptDate: row.first_prompt_date, frequency: row.frequency, timeZone: row.time_zone },
              now,
            ),
            updated_at: now,
          },
    )
    .where("storyteller_id", "=", storytellerId)
    .execute();
  return true;
}

/**
 * Deletes a Storyteller the user owns (false for anyone else). Prompts, schedule, deliveries,
 * answers and group links go with the row (foreign keys cascade); then the recordings in storage.
 */
export async function deleteStoryteller(
  services: Pick<AnswerServices, "db" | "storage">,
  userId: string,
  storytellerId: string,
): Promise<boolean> {
  // Checked first: deleteWithAnswerFiles removes the recordings of whatever Storyteller it is given.
  const owned = await services.db
    .selectFrom("storytellers")
    .select("id")
    .where("id", "=", storytellerId)
    .where("id", "in", ownedStorytellerIds(services.db, userId))
    .executeTakeFirst();
  if (!owned) return false;
  await deleteWithAnswerFiles(services, { storytellerId }, (tx) =>
    tx.deleteFrom("storytellers").where("id", "=", storytellerId).execute(),
  );
  return true;
}

/**
 * A Storyteller's Next Prompt (the first unsent one in queue order), as a subquery on `storytellerId`
 * (a column of the outer query): the overview's Storyteller and group cards show it.
 */
export function nextPromptQuery(db: DbOrTx, storytellerId: Expression<string>) {
  return db
    .selectFrom("prompts as p")
    .select("p.text")
    .where("p.storyteller_id", "=", storytellerId)
    .where("p.sent_at", "is", null)
    .orderBy("p.queue_position")
    .limit(1);
}

/** A Storyteller's Last Sent Prompt, as nextPromptQuery's subquery. */
export function lastSentPromptQuery(db: DbOrTx, storytellerId: Expression<string>) {
  return db
    .selectFrom("prompts as p")
    .select("p.text")
    .where("p.storyteller_id", "=", storytellerId)
    .where("p.sent_at", "is not", null)
    .orderBy("p.sent_at", "desc")
    .limit(1);
}
