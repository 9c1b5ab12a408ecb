import { type NotNull, sql } from "kysely";
import type { AppContext } from "~/context.server";
import { verifyCapability } from "~/services/tokens.server";
import { type DbOrTx, inTransaction } from "../../db/client";

/**
 * Pages opened from a capability link: never cached, and the token never in a Referer. `strict-origin`
 * sends only our origin as the Referer (never the path, so never the token, not even to ourselves),
 * and unlike `no-referrer` it lets the page's own posts carry our Origin rather than `Origin: null`,
 * which old browsers without Fetch Metadata need (decision 019). A browser that does not know it
 * falls back to `no-referrer`.
 */
export const capabilityPageHeaders = {
  "Referrer-Policy": "no-referrer, strict-origin",
  "Cache-Control": "no-store",
} as const;

/**
 * The prompt a record link points to, checked against the database on every use: a deleted
 * prompt or Storyteller (or a tampered token) gives null.
 */
export async function promptForRecordToken(context: Pick<AppContext, "db" | "config">, token: string) {
  const promptId = await verifyCapability(context.config, "record", token);
  if (!promptId) return null;
  const row = await context.db
    .selectFrom("prompts as p")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .select([
      "p.id",
      "p.text",
      "p.sent_at",
      "p.skipped_at",
      "p.rerecord_requested_at",
      "s.id as storyteller_id",
      "s.first_name",
      "s.language",
      "s.email",
      "s.phone_e164",
      "s.time_zone",
      sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker_name"),
      sql<string | null>`coalesce(asker.profile_pic_key, owner.profile_pic_key)`.as("asker_photo"),
    ])
    .where("p.id", "=", promptId)
    .executeTakeFirst();
  // Only a sent prompt has a link out in the world.
  return row?.sent_at ? row : null;
}

/** The answer to a record link's prompt, for the Storyteller's own player (private or not: it is theirs), or null. */
export async function answerForRecordToken(context: Pick<AppContext, "db" | "config">, token: string) {
  const prompt = await promptForRecordToken(context, token);
  if (!prompt) return null;
  return (
    (await context.db
      .selectFrom("answers")
      .select(["storage_key", "content_type", "playable_storage_key", "playable_content_type"])
      .where("prompt_id", "=", prompt.id)
      // A written answer has no recording to play.
      .where("storage_key", "is not", null)
      .$narrowType<{ storage_key: NotNull; content_type: NotNull }>()
      .executeTakeFirst()) ?? null
  );
}

/**
 * The Storyteller a register link (given on their record page) names, only when the link is live
 * and for this very id; null otherwise, so the page says nothing about anyone else.
 */
export async function storytellerForRegisterToken(
  context: Pick<AppContext, "db" | "config">,
  token: string,
  storytellerId: string | undefined,
) {
  const id = token ? await verifyCapability(context.config, "register", token) : null;
  if (!id || id !== storytellerId) return null;
  return (
    (await context.db
      .selectFrom("storytellers")
      .select(["first_name", "email"])
      .where("id", "=", id)
      .executeTakeFirst()) ?? null
  );
}

/** The Storyteller an unsubscribe link stands for, or null. */
export async function storytellerForUnsubscribeToken(context: Pick<AppContext, "db" | "config">, token: string) {
  const storytellerId = await verifyCapability(context.config, "unsubscribe", token);
  if (!storytellerId) return null;
  return (
    (await context.db
      .selectFrom("storytellers as s")
      .innerJoin("users as owner", "owner.id", "s.owner_id")
      .select(["s.id", "s.email", "s.language", "s.unsubscribed_at", "owner.first_name as asker_name"])
      .where("s.id", "=", storytellerId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Stops all email to the Storyteller, and remembers the address (email_opt_outs) so no edit or new
 * Storyteller with it starts sending again. Repeating it changes nothing.
 */
export async function unsubscribeStoryteller(context: Pick<AppContext, "db">, storytellerId: string, now = new Date()) {
  await inTransaction(context.db, async (tx) => {
    const row = await tx
      .updateTable("storytellers")
      .set({ unsubscribed_at: now, updated_at: now })
      .where("id", "=", storytellerId)
      .where("unsubscribed_at", "is", null)
      .returning("email")
      .executeTakeFirst();
    if (row?.email)
      await tx
        .insertInto("email_opt_outs")
        .values({ email: row.email.toLowerCase() })
        .onConflict((oc) => oc.doNothing())
        .execute();
  });
}

/** Whether the address has unsubscribed (from any Storyteller). */
export async function emailOptedOut(db: DbOrTx, email: string | null | undefined) {
  if (!email) return false;
  return Boolean(
    await db.selectFrom("email_opt_outs").select("email").where("email", "=", email.toLowerCase()).executeTakeFirst(),
  );
}
