import { type RawBuilder, sql } from "kysely";
import type { DbOrTx } from "../../db/client";

/**
 * The Storytellers a user may see: their own, plus those of the groups they belong to. Every query
 * about Storytellers, prompts and answers filters through this one subquery, so group access is
 * decided here and nowhere else.
 */
export function visibleStorytellerIds(db: DbOrTx, userId: string) {
  return db
    .selectFrom("storytellers")
    .select("storytellers.id")
    .where("storytellers.owner_id", "=", userId)
    .union(
      db
        .selectFrom("groups")
        .innerJoin("group_members", "group_members.group_id", "groups.id")
        .select("groups.storyteller_id as id")
        .where("group_members.user_id", "=", userId),
    );
}

/**
 * The Storytellers with a Storyteller page for this user (/dashboard/recipient/{id}: the view and its
 * actions, Edit Storyteller, Add New Prompt): those they may see, less the is_self row of their own
 * stories, which live in My Stories and are nobody they ask (decision 017).
 */
export function askedStorytellerIds(db: DbOrTx, userId: string) {
  return db
    .selectFrom("storytellers")
    .select("storytellers.id")
    .where("storytellers.is_self", "=", false)
    .where("storytellers.id", "in", visibleStorytellerIds(db, userId));
}

/** The Storytellers a user may change or delete: only their own (collaborators add prompts, nothing more). */
export function ownedStorytellerIds(db: DbOrTx, userId: string) {
  return db.selectFrom("storytellers").select("storytellers.id").where("storytellers.owner_id", "=", userId);
}

/** The groups a user belongs to, as their owner or a collaborator. */
export function memberGroupIds(db: DbOrTx, userId: string) {
  return db
    .selectFrom("group_members")
    .select("group_members.group_id as id")
    .where("group_members.user_id", "=", userId);
}

/**
 * The people who may see a Storyteller (the reverse of visibleStorytellerIds): its owner and every
 * member of its groups. Notifications about the Storyteller go to exactly these.
 */
export function usersWhoMaySee(db: DbOrTx, storytellerId: string) {
  return db
    .selectFrom("storytellers")
    .select("storytellers.owner_id as id")
    .where("storytellers.id", "=", storytellerId)
    .union(
      db
        .selectFrom("groups")
        .innerJoin("group_members", "group_members.group_id", "groups.id")
        .select("group_members.user_id as id")
        .where("groups.storyteller_id", "=", storytellerId),
    );
}

/** usersWhoMaySee for many Storytellers at once: one (storyteller_id, id) row per person and Storyteller. */
export function usersWhoMaySeeEach(db: DbOrTx, storytellerIds: string[]) {
  return db
    .selectFrom("storytellers")
    .select(["storytellers.id as storyteller_id", "storytellers.owner_id as id"])
    .where("storytellers.id", "in", storytellerIds)
    .union(
      db
        .selectFrom("groups")
        .innerJoin("group_members", "group_members.group_id", "groups.id")
        .select(["groups.storyteller_id as storyteller_id", "group_members.user_id as id"])
        .where("groups.storyteller_id", "in", storytellerIds),
    );
}

/**
 * The address a prompt's record link was sent to: the email of its own send (the ledger row with
 * purpose "prompt", the first link out), lower-cased, or null when it never went out by email.
 * Neither the Storyteller row's email nor a later resend moves it: the owner may edit the one and
 * trigger the other, and neither must hand her answer to another account (decisions 012, 063).
 */
export function recordLinkAddress(db: DbOrTx, promptId: string) {
  return db
    .selectFrom("deliveries as d")
    .innerJoin("outbox_messages as m", "m.id", "d.outbox_message_id")
    .select((eb) => eb.fn<string>("lower", ["m.to_address"]).as("address"))
    .where("d.prompt_id", "=", promptId)
    .where("d.channel", "=", "email")
    .where("d.purpose", "=", "prompt");
}

/** The prompts whose record link was sent to this account's address (recordLinkAddress's rule). */
export function promptsSentToAccount(db: DbOrTx, email: string) {
  return db
    .selectFrom("deliveries as d")
    .innerJoin("outbox_messages as m", "m.id", "d.outbox_message_id")
    .select("d.prompt_id as id")
    .where("d.channel", "=", "email")
    .where("d.purpose", "=", "prompt")
    .where((eb) => eb(eb.fn("lower", ["m.to_address"]), "=", email.toLowerCase()));
}

/**
 * Whether an answer is the Storyteller's own for this account: it was recorded for the account's
 * address (answers.recorded_for_email, set when it arrived from recordLinkAddress; an answer by phone
 * or WhatsApp came from a number and is nobody's account until phone sign-in exists). Every surface
 * that lets the Storyteller hear or read a private answer asks this, naming the answers table as the
 * query does ("a", "answers"); `account` is the signed-in email or the user's id.
 */
export function isOwnAnswer(answers: string, account: { email: string } | { userId: string }) {
  const address =
    "email" in account
      ? sql`lower(${account.email})`
      : sql`(select lower(own.email) from users own where own.id = ${account.userId})`;
  return sql<boolean>`(${sql.ref(`${answers}.recorded_for_email`)} = ${address})`;
}

/**
 * Whether an answer is shared with the family, as opposed to kept private by its Storyteller: the
 * only reading of answers.is_private for who may hear it (answerVisibleTo builds on it). It is about
 * the answer row, whatever it holds (a recording today; words or photos on the same row later).
 */
export function sharedAnswer(answers: string) {
  return sql<boolean>`(${sql.ref(`${answers}.is_private`)} = false)`;
}

/**
 * Who an answer is for (answerVisibleTo):
 * - "anyone": whoever holds a share or listen link, or her own record link: shared answers only;
 * - "family": the owner and the group members of its Storyteller (visibleStorytellerIds), shared only;
 * - "owner": its Storyteller's owner (ownedStorytellerIds), shared only: delete, re-record;
 * - "listener": the family, and the Storyteller's own account for every answer recorded for it
 *   (isOwnAnswer), private ones included: listen, download, search, the Timeline, export.
 */
export type AnswerAudience =
  | { kind: "anyone" }
  | { kind: "family"; userId: string }
  | { kind: "owner"; userId: string }
  | { kind: "listener"; userId: string; email?: string };

/**
 * The one rule for who may hear an answer, as a condition on the answers row named `answers` (its
 * alias in the query: "a", "answers"). Every query that lists, plays, shares, searches, exports or
 * prints answers filters through it, in Kysely (`.where(answerVisibleTo(...))`) or raw SQL alike.
 */
export function answerVisibleTo(db: DbOrTx, answers: string, audience: AnswerAudience): RawBuilder<boolean> {
  const shared = sharedAnswer(answers);
  const storyteller = sql.ref(`${answers}.storyteller_id`);
  switch (audience.kind) {
    case "anyone":
      return shared;
    case "family":
      return sql<boolean>`(${shared} and ${storyteller} in (${visibleStorytellerIds(db, audience.userId)}))`;
    case "owner":
      return sql<boolean>`(${shared} and ${storyteller} in (${ownedStorytellerIds(db, audience.userId)}))`;
    case "listener": {
      const family = answerVisibleTo(db, answers, { kind: "family", userId: audience.userId });
      const own = isOwnAnswer(answers, audience.email ? { email: audience.email } : { userId: audience.userId });
      return sql<boolean>`(${family} or ${own})`;
    }
  }
}

/** The Storytellers someone answered for: those with an answer that is their own (isOwnAnswer). */
export function answeredForStorytellerIds(db: DbOrTx, email: string) {
  return db.selectFrom("answers").select("answers.storyteller_id as id").where(isOwnAnswer("answers", { email }));
}

export type StorytellerRole = "owner" | "collaborator";

/**
 * What the user is to a Storyteller: its "owner" (storytellers.owner_id: edits and deletes it, its
 * answers and every prompt, sends now, pauses), a "collaborator" (a member of one of its groups, in
 * any group role, who is not its owner: sees it, adds prompts and changes only the prompts they
 * added, listens to, shares and downloads non-private answers), or null (may not see it). A group's
 * "owner" role governs the group (its pages), not the Storyteller. Decision 018.
 */
export async function storytellerRole(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
): Promise<StorytellerRole | null> {
  return roleAmong(db, userId, storytellerId, visibleStorytellerIds(db, userId));
}

/**
 * storytellerRole for the Storyteller pages (askedStorytellerIds): null also for the user's own
 * stories' is_self row, so the view's loader and every one of its actions refuse it alike (404).
 */
export async function askedStorytellerRole(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
): Promise<StorytellerRole | null> {
  return roleAmong(db, userId, storytellerId, askedStorytellerIds(db, userId));
}

/** The user's role for a Storyteller among `ids` (one of the id sets above), or null. */
async function roleAmong(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  ids: ReturnType<typeof visibleStorytellerIds>,
): Promise<StorytellerRole | null> {
  const row = await db
    .selectFrom("storytellers")
    .select("owner_id")
    .where("id", "=", storytellerId)
    .where("id", "in", ids)
    .executeTakeFirst();
  if (!row) return null;
  return row.owner_id === userId ? "owner" : "collaborator";
}

/**
 * The prompts a user may reword, move or delete: every prompt of a Storyteller they own, and the
 * prompts they added themselves (prompts.created_by) to a Storyteller they may still see. Send now
 * is the owner's alone (ownedStorytellerIds); a collaborator who leaves or is removed keeps no power
 * over the prompts they added, which stay in the queue for the owner.
 */
export function editablePromptIds(db: DbOrTx, userId: string) {
  return db
    .selectFrom("prompts")
    .select("prompts.id")
    .where((eb) =>
      eb.or([
        eb("prompts.storyteller_id", "in", ownedStorytellerIds(db, userId)),
        eb.and([
          eb("prompts.created_by", "=", userId),
          eb("prompts.storyteller_id", "in", visibleStorytellerIds(db, userId)),
        ]),
      ]),
    );
}

/** The groups a user governs (groups.owner_id): renames, invites, removes members, deletes. Decision 018. */
export function ownedGroupIds(db: DbOrTx, userId: string) {
  return db.selectFrom("groups").select("groups.id").where("groups.owner_id", "=", userId);
}
