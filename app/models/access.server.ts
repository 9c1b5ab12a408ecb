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

/**
 * The Storytellers someone answered for: those with an answer recorded for their address (decision
 * 012: the address the record link went to, never the Storyteller row's editable email).
 */
export function answeredForStorytellerIds(db: DbOrTx, email: string) {
  return db
    .selectFrom("answers")
    .select("answers.storyteller_id as id")
    .where("answers.recorded_for_email", "=", email.toLowerCase());
}
