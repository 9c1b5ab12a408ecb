import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";
import { visibleStorytellerIds } from "./access.server";

/** The overview's cards: every Storyteller the user may see, with next/last prompt and answers, in one query. */
export async function listStorytellerCards(db: DbOrTx, userId: string) {
  return db
    .selectFrom("storytellers as s")
    .select((eb) => [
      "s.id",
      "s.nickname",
      "s.first_name",
      "s.relationship",
      "s.delivery_method",
      "s.unsubscribed_at",
      "s.sms_consent",
      eb
        .selectFrom("prompts as p")
        .select("p.text")
        .whereRef("p.storyteller_id", "=", "s.id")
        .where("p.sent_at", "is", null)
        .orderBy("p.queue_position")
        .limit(1)
        .as("next_prompt"),
      eb
        .selectFrom("prompts as p")
        .select("p.text")
        .whereRef("p.storyteller_id", "=", "s.id")
        .where("p.sent_at", "is not", null)
        .orderBy("p.sent_at", "desc")
        .limit(1)
        .as("last_sent_prompt"),
      eb.selectFrom("answers as a").select(sql<number>`count(*)::int`.as("n")).whereRef("a.storyteller_id", "=", "s.id").as("answered"),
    ])
    .where("s.id", "in", visibleStorytellerIds(db, userId))
    .orderBy("s.created_at")
    .execute();
}
