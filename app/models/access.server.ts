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
