import type { DbOrTx } from "../../db/client";

/**
 * A Storyteller's stories for the printable page: for their owner, or for the Storyteller's own
 * account (the user whose email is the Storyteller's). Anyone else gets a 404. The Storyteller sees
 * their private answers' transcripts; the owner sees only that they exist.
 */
export async function getStories(db: DbOrTx, user: { id: string; email: string }, storytellerId: string) {
  const storyteller = await db
    .selectFrom("storytellers")
    .select(["id", "first_name", "owner_id"])
    .where("id", "=", storytellerId)
    .where((eb) => eb.or([eb("owner_id", "=", user.id), eb(eb.fn("lower", ["email"]), "=", user.email.toLowerCase())]))
    .executeTakeFirst();
  if (!storyteller) throw new Response(null, { status: 404 });
  const isStoryteller = storyteller.owner_id !== user.id;
  const prompts = await db
    .selectFrom("prompts as p")
    .leftJoin("answers as a", "a.prompt_id", "p.id")
    .select(["p.id", "p.text", "p.sent_at", "p.skipped_at", "a.created_at as answered_at", "a.is_private", "a.transcript", "a.transcript_status"])
    .where("p.storyteller_id", "=", storyteller.id)
    .where("p.sent_at", "is not", null)
    .orderBy("p.sent_at")
    .orderBy("p.queue_position")
    .execute();
  return {
    firstName: storyteller.first_name,
    stories: prompts.map((p) => {
      const hidden = Boolean(p.is_private) && !isStoryteller;
      return {
        id: p.id,
        question: p.text,
        state: p.answered_at ? (hidden ? "private" : "answered") : p.skipped_at ? "skipped" : "notAnswered",
        answeredAt: p.answered_at?.toISOString() ?? null,
        transcript: hidden ? null : p.transcript,
        transcriptStatus: hidden ? null : p.transcript_status,
      } as const;
    }),
  };
}

/**
 * My Stories: every answer the signed-in user recorded as a Storyteller (Storytellers whose email is
 * theirs, in any family), newest first, in one query.
 */
export async function getMyStories(db: DbOrTx, user: { email: string }) {
  const rows = await db
    .selectFrom("answers as a")
    .innerJoin("prompts as p", "p.id", "a.prompt_id")
    .innerJoin("storytellers as s", "s.id", "a.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .select((eb) => [
      "a.id",
      "a.created_at",
      "a.is_private",
      "a.transcript",
      "a.transcript_status",
      "p.text as question",
      "s.id as storyteller_id",
      eb.fn.coalesce("asker.first_name", "owner.first_name").as("asker_name"),
    ])
    .where((eb) => eb(eb.fn("lower", ["s.email"]), "=", user.email.toLowerCase()))
    .orderBy("a.created_at", "desc")
    .limit(500)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    question: r.question,
    askerName: r.asker_name,
    storytellerId: r.storyteller_id,
    isPrivate: r.is_private,
    answeredAt: r.created_at.toISOString(),
    transcript: r.transcript,
    transcriptStatus: r.transcript_status,
  }));
}
