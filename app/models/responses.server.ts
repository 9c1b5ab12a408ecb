import { isUuid } from "~/utils/ids";
import type { DbOrTx } from "../../db/client";
import { answeredForStorytellerIds, isOwnAnswer, sharedAnswer, visibleStorytellerIds } from "./access.server";

/**
 * A Storyteller's stories for the printable page: for their owner and the members of their groups
 * (visibleStorytellerIds), or for the person the record links went to (answers recorded for their
 * address); null for anyone else. Private answers' transcripts are shown only to the one who
 * recorded them.
 */
export async function getStories(db: DbOrTx, user: { id: string; email: string }, storytellerId: string) {
  if (!isUuid(storytellerId)) return null;
  const email = user.email.toLowerCase();
  const storyteller = await db
    .selectFrom("storytellers as s")
    .select(["s.id", "s.first_name"])
    .where("s.id", "=", storytellerId)
    .where((eb) =>
      eb.or([
        eb("s.id", "in", visibleStorytellerIds(db, user.id)),
        eb("s.id", "in", answeredForStorytellerIds(db, email)),
      ]),
    )
    .executeTakeFirst();
  if (!storyteller) return null;
  const prompts = await db
    .selectFrom("prompts as p")
    .leftJoin("answers as a", "a.prompt_id", "p.id")
    .select([
      "p.id",
      "p.text",
      "p.sent_at",
      "p.skipped_at",
      "a.created_at as answered_at",
      sharedAnswer("a").as("shared"),
      "a.via_phone",
      "a.transcript",
      "a.transcript_status",
      isOwnAnswer("a", { email }).as("own"),
    ])
    .where("p.storyteller_id", "=", storyteller.id)
    .where("p.sent_at", "is not", null)
    .orderBy("p.sent_at")
    .orderBy("p.queue_position")
    .execute();
  return {
    firstName: storyteller.first_name,
    stories: prompts.map((p) => {
      // A private answer's words are for the one who recorded it.
      const hidden = !p.shared && !p.own;
      return {
        id: p.id,
        question: p.text,
        state: p.answered_at ? (hidden ? "private" : "answered") : p.skipped_at ? "skipped" : "notAnswered",
        answeredAt: p.answered_at?.toISOString() ?? null,
        viaPhone: Boolean(p.via_phone),
        transcript: hidden ? null : p.transcript,
        transcriptStatus: hidden ? null : p.transcript_status,
      } as const;
    }),
  };
}
