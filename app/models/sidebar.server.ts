import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";
import { preparedQuery } from "../../db/prepared";
import { askedStorytellerIds, isOwnAnswer } from "./access.server";
import { unreadCountQuery } from "./notification.server";

/**
 * The dashboard chrome's counts in one query (the layout runs on every dashboard page). Storytellers
 * counts the cards the overview shows: every Storyteller the user may see (their own and their
 * groups'), each once, not the is_self row of their own stories; a group is not a second Storyteller
 * (decision 050). My Stories counts the stories its page lists: answers the user is the Storyteller
 * of (recorded for their address, or their own stories; decision 017).
 */
export async function getSidebarCounts(db: DbOrTx, userId: string) {
  const [row] = await sidebarCountsQuery(db, { userId });
  return {
    storytellers: Number(row.storytellers ?? 0),
    myStories: Number(row.myStories ?? 0),
    unreadNotifications: Number(row.unread ?? 0),
  };
}

// The layout runs it on every dashboard page: built and compiled once (decision 056).
const sidebarCountsQuery = preparedQuery(["userId"], (db, { userId }: { userId: string }) =>
  db.selectNoFrom((eb) => [
    eb
      .selectFrom(askedStorytellerIds(db, userId).as("asked"))
      .select(sql<number>`count(*)::int`.as("n"))
      .as("storytellers"),
    // The bell's badge: the same count as unreadCount (only notifications the user may still read).
    eb.selectFrom(unreadCountQuery(db, userId).as("u")).select("u.n").as("unread"),
    // My Stories: answers recorded for this user's address, and the stories they recorded themself.
    eb
      .selectFrom("answers")
      .select(sql<number>`count(*)::int`.as("n"))
      .where((a) =>
        a.or([
          isOwnAnswer("answers", { userId }),
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
  ]),
);
