import { type ExpressionBuilder, sql } from "kysely";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { queueEmail } from "~/services/outbox.server";
import { isUuid } from "~/utils/ids";
import type { NotificationView } from "~/utils/notifications";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Database } from "../../db/schema";
import { usersWhoMaySee, usersWhoMaySeeEach, visibleStorytellerIds } from "./access.server";

export type NotificationType =
  "new" | "uploaded" | "skipped" | "listened" | "queue_empty" | "export_ready" | "book_ready" | "message";

/** What happened to one prompt of a Storyteller. "new" (a prompt was just sent) is accepted too. */
export type StorytellerEvent = {
  type: "uploaded" | "skipped" | "listened" | "new";
  storytellerId: string;
  promptId: string;
};

/** The longest prompt text put into an email subject; the body carries it whole. */
const SUBJECT_PROMPT_CHARS = 80;

/**
 * One row per person who can see the Storyteller (usersWhoMaySee: the owner and every member of the
 * Storyteller's groups), in the caller's transaction; for "uploaded", also an email
 * in each person's language to those whose Activity preference (notify_activity) is on. Nothing is
 * written when the Storyteller or prompt is gone (the answer was deleted meanwhile), nor for the
 * is_self Storyteller of a user's own stories.
 */
export async function notifyStorytellerEvent(
  db: DbOrTx,
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  event: StorytellerEvent,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const about = await tx
      .selectFrom("prompts")
      .innerJoin("storytellers", "storytellers.id", "prompts.storyteller_id")
      .select(["storytellers.nickname", "prompts.text", "prompts.is_own_story"])
      .where("prompts.id", "=", event.promptId)
      .where("storytellers.id", "=", event.storytellerId)
      // The user's own stories (is_self): they did it themself, there is no one to tell.
      .where("storytellers.is_self", "=", false)
      .executeTakeFirst();
    if (!about) return;

    const people = await tx
      .selectFrom("users")
      .select(["id", "email", "first_name", "language", "notify_activity"])
      .where("users.id", "in", usersWhoMaySee(tx, event.storytellerId))
      .orderBy("users.id")
      .execute();
    if (!people.length) return;

    await tx
      .insertInto("notifications")
      .values(
        people.map((person) => ({
          user_id: person.id,
          type: event.type,
          storyteller_id: event.storytellerId,
          prompt_id: event.promptId,
        })),
      )
      .execute();

    if (event.type !== "uploaded") return;
    const url = `${config.APP_URL}/dashboard/recipient/${event.storytellerId}?sent=true`;
    const settingsUrl = `${config.APP_URL}/dashboard/user/account`;
    const shortPrompt = oneLine(about.text, SUBJECT_PROMPT_CHARS);
    // A story of her own (a WhatsApp voice note no question asked for) is not "answered".
    const email = about.is_own_story ? "storySent" : "answerUploaded";
    for (const person of people) {
      if (!person.notify_activity) continue;
      const t = await getServerT(person.language, { config }, "emails");
      await queueEmail(tx, {
        to: person.email,
        subject: t(`${email}.subject`, { storyteller: about.nickname, prompt: shortPrompt }),
        text: t(`${email}.text`, {
          name: person.first_name,
          storyteller: about.nickname,
          prompt: about.text,
          url,
          settingsUrl,
        }),
      });
    }
  });
}

/**
 * A message she wrote the family (a WhatsApp text): a "message" notification for each person who can
 * see the Storyteller, and an email to those whose Activity preference is on, with her words.
 * Returns the owner's first name (whom she is told it reached).
 */
export async function notifyStorytellerMessage(
  tx: DbOrTx,
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  input: { storytellerId: string; messageId: string },
): Promise<string> {
  const about = await tx
    .selectFrom("storyteller_messages as m")
    .innerJoin("storytellers as s", "s.id", "m.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .select(["s.nickname", "m.text", "owner.first_name as owner"])
    .where("m.id", "=", input.messageId)
    .where("s.id", "=", input.storytellerId)
    .executeTakeFirstOrThrow();
  const people = await tx
    .selectFrom("users")
    .select(["id", "email", "first_name", "language", "notify_activity"])
    .where("users.id", "in", usersWhoMaySee(tx, input.storytellerId))
    .orderBy("users.id")
    .execute();
  if (!people.length) return about.owner;
  await tx
    .insertInto("notifications")
    .values(
      people.map((person) => ({
        user_id: person.id,
        type: "message",
        storyteller_id: input.storytellerId,
        message_id: input.messageId,
      })),
    )
    .execute();
  const url = `${config.APP_URL}/dashboard/recipient/${input.storytellerId}`;
  const settingsUrl = `${config.APP_URL}/dashboard/user/account`;
  for (const person of people) {
    if (!person.notify_activity) continue;
    const t = await getServerT(person.language, { config }, "emails");
    await queueEmail(tx, {
      to: person.email,
      subject: t("storytellerMessage.subject", {
        storyteller: about.nickname,
        message: oneLine(about.text, SUBJECT_PROMPT_CHARS),
      }),
      text: t("storytellerMessage.text", {
        name: person.first_name,
        storyteller: about.nickname,
        message: about.text,
        url,
        settingsUrl,
      }),
    });
  }
  return about.owner;
}

/**
 * "new" for many prompts just sent (the scheduler's batches): what notifyStorytellerEvent writes for
 * each, in one query for the people and one insert.
 */
export async function notifyPromptsSent(tx: DbOrTx, sent: { storytellerId: string; promptId: string }[]) {
  if (!sent.length) return;
  const storytellerIds = [...new Set(sent.map((s) => s.storytellerId))];
  const self = new Set(
    (
      await tx
        .selectFrom("storytellers")
        .select("id")
        .where("id", "in", storytellerIds)
        .where("is_self", "=", true)
        .execute()
    ).map((s) => s.id),
  );
  const others = storytellerIds.filter((id) => !self.has(id));
  if (!others.length) return;
  const people = new Map<string, string[]>();
  for (const viewer of await usersWhoMaySeeEach(tx, others).execute())
    people.set(viewer.storyteller_id, [...(people.get(viewer.storyteller_id) ?? []), viewer.id]);
  const rows = sent.flatMap((s) =>
    (people.get(s.storytellerId) ?? []).map((userId) => ({
      user_id: userId,
      type: "new" as const,
      storyteller_id: s.storytellerId,
      prompt_id: s.promptId,
    })),
  );
  if (rows.length) await tx.insertInto("notifications").values(rows).execute();
}

function oneLine(text: string, max: number) {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/**
 * Kept (the Storyteller page and tests read them) but not shown: a question going out is the
 * family's own doing, and her opening one asks nothing of them; one of each per question buried
 * the answers (decision 050).
 */
export const QUIET_TYPES = ["new", "listened"] as const satisfies NotificationType[];

/**
 * Only notifications the user may still read: about no Storyteller, or about one they may see now,
 * and not of a quiet type. Someone who left a group or was removed from it stops seeing what it told
 * them (whether or not forgetStorytellerNotifications ran), and the bell's count agrees with its list.
 */
function stillVisible(db: DbOrTx, userId: string) {
  return (eb: ExpressionBuilder<Database, "notifications">) =>
    eb.and([
      eb("notifications.type", "not in", QUIET_TYPES),
      eb.or([
        eb("notifications.storyteller_id", "is", null),
        eb("notifications.storyteller_id", "in", visibleStorytellerIds(db, userId)),
      ]),
    ]);
}

/** The user's notifications, newest first, with the Storyteller's nickname and the prompt's text. */
export async function listNotifications(db: DbOrTx, userId: string, limit: number): Promise<NotificationView[]> {
  const rows = await db
    .selectFrom("notifications")
    .leftJoin("storytellers", "storytellers.id", "notifications.storyteller_id")
    .leftJoin("prompts", "prompts.id", "notifications.prompt_id")
    .leftJoin("storyteller_messages", "storyteller_messages.id", "notifications.message_id")
    .select([
      "notifications.id",
      "notifications.type",
      "notifications.storyteller_id",
      "notifications.prompt_id",
      "notifications.is_new",
      "notifications.created_at",
      "storytellers.nickname",
      "prompts.text as prompt_text",
      "prompts.is_own_story",
      "storyteller_messages.text as message_text",
    ])
    .where("notifications.user_id", "=", userId)
    .where(stillVisible(db, userId))
    .orderBy("notifications.created_at", "desc")
    .orderBy("notifications.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    // A story of her own arrived: "Dadi sent a story", not "answered a question".
    type: row.type === "uploaded" && row.is_own_story ? "story" : row.type,
    storytellerId: row.storyteller_id,
    promptId: row.prompt_id,
    nickname: row.nickname,
    // Her words, for a message she wrote; a story of her own has no question to quote.
    promptText: row.message_text ?? (row.is_own_story ? null : row.prompt_text),
    isNew: row.is_new,
    createdAt: row.created_at.toISOString(),
  }));
}

/** How many of the user's notifications are unread (read through the partial index notifications_unread_idx). */
export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  const row = await unreadCountQuery(db, userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The query behind unreadCount (exported for the test that reads its plan). */
export function unreadCountQuery(db: DbOrTx, userId: string) {
  return db
    .selectFrom("notifications")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("user_id", "=", userId)
    .where("is_new", "=", true)
    .where(stillVisible(db, userId));
}

/** Marks the user's own notifications read (ids that are not theirs, or not ids at all, are ignored); returns how many changed. */
export async function markRead(db: DbOrTx, userId: string, ids: string[] | "all"): Promise<number> {
  let query = db
    .updateTable("notifications")
    .set({ is_new: false })
    .where("user_id", "=", userId)
    .where("is_new", "=", true);
  if (ids !== "all") {
    const valid = [...new Set(ids.filter((id) => isUuid(id)))];
    if (!valid.length) return 0;
    query = query.where("id", "in", valid);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Drops a user's notifications about one Storyteller (for when they leave or are removed from its group). */
export async function forgetStorytellerNotifications(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
): Promise<number> {
  const result = await db
    .deleteFrom("notifications")
    .where("user_id", "=", userId)
    .where("storyteller_id", "=", storytellerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
