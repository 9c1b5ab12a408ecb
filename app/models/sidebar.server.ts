import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";
import { memberGroupIds, ownedStorytellerIds } from "./access.server";
import { unreadCountQuery } from "./notification.server";

/**
 * The dashboard chrome's counts in one query (the layout runs on every dashboard page). Storytellers
 * counts the user's own Storytellers plus the groups they belong to ("Storytellers + Groups"), not
 * the is_self row of their own stories. My Stories counts the stories its page lists: answers the
 * user is the Storyteller of (recorded for their address, or their own stories; decision 017).
 */
export async function getSidebarCounts(db: DbOrTx, userId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom(ownedStorytellerIds(db, userId).where("storytellers.is_self", "=", false).as("own"))
        .select(sql<number>`count(*)::int`.as("n"))
        .as("storytellers"),
      eb
        .selectFrom(memberGroupIds(db, userId).as("member_of"))
        .select(sql<number>`count(*)::int`.as("n"))
        .as("groups"),
      // The bell's badge: the same count as unreadCount (only notifications the user may still read).
      eb.selectFrom(unreadCountQuery(db, userId).as("u")).select("u.n").as("unread"),
      // My Stories: answers recorded for this user's address, and the stories they recorded themself.
      eb
        .selectFrom("answers")
        .select(sql<number>`count(*)::int`.as("n"))
        .where((a) =>
          a.or([
            a(
              "answers.recorded_for_email",
              "=",
              a
                .selectFrom("users")
                .select((u) => u.fn<string>("lower", ["email"]).as("email"))
                .where("id", "=", userId),
            ),
            a(
              "answers.storyteller_id",
              "in",
              a
                .selectFrom("storytellers")
                .select("storytellers.id")
                .where("storytellers.owner_id", "=", userId)
                .where("storytellers.is_self", "=", true),
            ),
          ]),
        )
        .as("myStories"),
    ])
    .executeTakeFirstOrThrow();
  return {
    storytellers: Number(row.storytellers ?? 0) + Number(row.groups ?? 0),
    myStories: Number(row.myStories ?? 0),
    unreadNotifications: Number(row.unread ?? 0),
  };
}
