import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";

/** The dashboard chrome's counts in one query (the layout runs on every dashboard page). */
export async function getSidebarCounts(db: DbOrTx, userId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom("storytellers").select(sql<number>`count(*)::int`.as("n")).where("owner_id", "=", userId).as("storytellers"),
      eb
        .selectFrom("group_members")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("user_id", "=", userId)
        .as("groups"),
      eb
        .selectFrom("notifications")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("user_id", "=", userId)
        .where("is_new", "=", true)
        .as("unread"),
      // My Stories: answers recorded for this user's address.
      eb
        .selectFrom("answers")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("recorded_for_email", "=", eb.selectFrom("users").select((u) => u.fn<string>("lower", ["email"]).as("email")).where("id", "=", userId))
        .as("myStories"),
    ])
    .executeTakeFirstOrThrow();
  return {
    storytellers: Number(row.storytellers ?? 0) + Number(row.groups ?? 0),
    myStories: Number(row.myStories ?? 0),
    unreadNotifications: Number(row.unread ?? 0),
  };
}
