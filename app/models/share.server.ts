import type { NotNull } from "kysely";
import type { Config } from "~/config.server";
import type { AppContext } from "~/context.server";
import { log } from "~/services/logger.server";
import { serveStoredFile } from "~/services/serve-file.server";
import type { StorageService } from "~/services/storage.server";
import { signCapability, verifyCapability } from "~/services/tokens.server";
import { isUuid } from "~/utils/ids";
import { type DbOrTx, inTransaction } from "../../db/client";
import { answerVisibleTo, visibleStorytellerIds } from "./access.server";
import { reopenAnswerCode } from "./answer-code.server";
import { canReceive, deliverNow } from "./delivery.server";
import { reachColumns } from "./storyteller-columns.server";

/**
 * What the family does with an answer (the Sent tab): listen, download and share (owner and group
 * members), delete and re-record (the owner only); and the public `/s/{token}` page a share link
 * opens. Every query about an answer is scoped by `answerVisibleTo` (the access module's one rule).
 */

/** The stored audio of an answer and what its download is named after. */
export type AnswerAudio = {
  id: string;
  storage_key: string;
  content_type: string;
  playable_storage_key: string | null;
  playable_content_type: string | null;
  prompt_text: string;
  first_name: string;
};

const audioColumns = [
  "a.id",
  "a.storage_key",
  "a.content_type",
  "a.playable_storage_key",
  "a.playable_content_type",
  "p.text as prompt_text",
  "s.first_name",
] as const;

/**
 * An answer the user may listen to and download, or null: the family's (their own Storyteller's or
 * their group's; not private), or the Storyteller's own, private ones included, when the record
 * link went to the user's address (My Stories; see answers.recorded_for_email).
 */
export async function answerForListener(db: DbOrTx, userId: string, answerId: string): Promise<AnswerAudio | null> {
  if (!isUuid(answerId)) return null;
  const row = await db
    .selectFrom("answers as a")
    .innerJoin("prompts as p", "p.id", "a.prompt_id")
    .innerJoin("storytellers as s", "s.id", "a.storyteller_id")
    .select(audioColumns)
    // A written answer (by email reply) has no recording to play or download.
    .where("a.storage_key", "is not", null)
    .$narrowType<{ storage_key: NotNull; content_type: NotNull }>()
    .where("a.id", "=", answerId)
    .where(answerVisibleTo(db, "a", { kind: "listener", userId }))
    .executeTakeFirst();
  return row ?? null;
}

/** The copy every browser plays (AAC/M4A) when the transcode job made one, else the original. */
export function playableSource(
  answer: Pick<AnswerAudio, "storage_key" | "content_type" | "playable_storage_key" | "playable_content_type">,
) {
  return answer.playable_storage_key && answer.playable_content_type
    ? { key: answer.playable_storage_key, contentType: answer.playable_content_type }
    : { key: answer.storage_key, contentType: answer.content_type };
}

const EXTENSIONS: Record<string, string> = {
  "audio/mp4": "m4a",
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/flac": "flac",
  "audio/3gpp": "3gp",
  "audio/3gpp2": "3g2",
  "audio/amr": "amr",
  "audio/amr-wb": "awb",
  "audio/aac": "aac",
  "audio/x-caf": "caf",
};
const MAX_PROMPT_CHARS = 80;

/**
 * "Kamla – What was your first home like.m4a": the Storyteller's first name and the question, with
 * characters no file system accepts (and trailing punctuation) left out. Any script is kept
 * (Hindi names and questions stay readable); the header's ASCII fallback is serve-file's business.
 */
export function answerDownloadName(firstName: string, promptText: string, contentType: string) {
  const clean = (text: string) =>
    text
      .replace(/[\p{Cc}<>:"/\\|?*]+/gu, " ")
      .replace(/\s+/g, " ")
      .trim();
  let question = clean(promptText);
  const characters = Array.from(question);
  if (characters.length > MAX_PROMPT_CHARS) {
    const cut = characters.slice(0, MAX_PROMPT_CHARS).join("");
    const space = cut.lastIndexOf(" ");
    question = space > MAX_PROMPT_CHARS / 2 ? cut.slice(0, space) : cut;
  }
  question = question.replace(/[\p{P}\s]+$/u, "");
  const name = clean(firstName);
  const stem = [name, question].filter(Boolean).join(" – ") || "answer";
  return `${stem}.${EXTENSIONS[contentType] ?? "audio"}`;
}

/**
 * Streams an answer (with seeking) after the caller's authorization check: inline for the player,
 * or as a named attachment for Download. Both use the playable copy when there is one.
 */
export function serveAnswerAudio(
  request: Request,
  storage: StorageService,
  answer: AnswerAudio,
  options: { download?: boolean; headers?: Record<string, string>; cacheControl?: string } = {},
) {
  const source = playableSource(answer);
  return serveStoredFile(request, storage, source.key, {
    contentType: source.contentType,
    disposition: options.download ? "attachment" : "inline",
    filename: answerDownloadName(answer.first_name, answer.prompt_text, source.contentType),
    headers: options.headers,
    cacheControl: options.cacheControl,
  });
}

export const shareUrl = (config: Pick<Config, "APP_URL">, token: string) => `${config.APP_URL}/s/${token}`;

/**
 * The public address of a share link (the token names the link row, nothing else). One link, one
 * address: share tokens never expire (revoking the row stops them), so the time they are signed at
 * is fixed, and the page, the share sheet and an email all give the same address.
 */
export async function shareUrlFor(config: Pick<Config, "APP_URL" | "SESSION_SECRET">, shareLinkId: string) {
  return shareUrl(config, await signCapability(config, "share", shareLinkId, SHARE_SIGNED_AT));
}
const SHARE_SIGNED_AT = new Date(0);

/**
 * Share: the answer's live link (the newest one not revoked), or a new one. Owner and group members
 * may share; anyone else, or a private answer, gets null.
 */
export async function shareAnswer(
  context: Pick<AppContext, "db" | "config">,
  userId: string,
  storytellerId: string,
  answerId: string,
): Promise<{ url: string } | null> {
  const linkId = await inTransaction(context.db, async (tx) => {
    // Locking the answer row: two Share clicks at once end with one link.
    const answer = await tx
      .selectFrom("answers")
      .select("id")
      .where("id", "=", answerId)
      .where("storyteller_id", "=", storytellerId)
      .where(answerVisibleTo(tx, "answers", { kind: "family", userId }))
      .forUpdate()
      .executeTakeFirst();
    if (!answer) return null;
    const live = await tx
      .selectFrom("share_links")
      .select("id")
      .where("answer_id", "=", answer.id)
      .where("revoked_at", "is", null)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (live) return live.id;
    const created = await tx
      .insertInto("share_links")
      .values({ answer_id: answer.id, created_by_user_id: userId })
      .returning("id")
      .executeTakeFirstOrThrow();
    return created.id;
  });
  return linkId ? { url: await shareUrlFor(context.config, linkId) } : null;
}

/** Stop sharing: every live link of the answer stops working at once. Same people as Share; false for anyone else. */
export async function stopSharingAnswer(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  answerId: string,
  now = new Date(),
): Promise<boolean> {
  const answer = await db
    .selectFrom("answers")
    .select("id")
    .where("id", "=", answerId)
    .where("storyteller_id", "=", storytellerId)
    .where("storyteller_id", "in", visibleStorytellerIds(db, userId))
    .executeTakeFirst();
  if (!answer) return false;
  await db
    .updateTable("share_links")
    .set({ revoked_at: now })
    .where("answer_id", "=", answer.id)
    .where("revoked_at", "is", null)
    .execute();
  return true;
}

/** The link table each public-answer capability names a row of: one answer per link, revocable. */
const linkTables = { share: "share_links", listen: "listen_links" } as const;

/**
 * What a share (`/s/{token}`) or listen (`/l/{token}`, a book's QR code) link opens, checked against
 * the database on every use: null when the token is tampered with or of another purpose, the link
 * revoked, the answer deleted (or re-recorded) or private.
 */
export async function answerForLinkToken(
  context: Pick<AppContext, "db" | "config">,
  purpose: keyof typeof linkTables,
  token: string,
): Promise<AnswerAudio | null> {
  const linkId = await verifyCapability(context.config, purpose, token);
  if (!linkId) return null;
  const row = await context.db
    // The two tables have the same columns (db/schema.ts), but Kysely cannot type joins from a
    // union of tables, so the query is typed as share_links' for both.
    .selectFrom(`${linkTables[purpose]} as l` as "share_links as l")
    .innerJoin("answers as a", "a.id", "l.answer_id")
    .innerJoin("prompts as p", "p.id", "a.prompt_id")
    .innerJoin("storytellers as s", "s.id", "a.storyteller_id")
    .select(audioColumns)
    // A written answer (by email reply) has no recording to play or download.
    .where("a.storage_key", "is not", null)
    .$narrowType<{ storage_key: NotNull; content_type: NotNull }>()
    .where("l.id", "=", linkId)
    .where("l.revoked_at", "is", null)
    .where(answerVisibleTo(context.db, "a", { kind: "anyone" }))
    .executeTakeFirst();
  return row ?? null;
}

/** What a share link opens (`answerForLinkToken`). */
export function answerForShareToken(
  context: Pick<AppContext, "db" | "config">,
  token: string,
): Promise<AnswerAudio | null> {
  return answerForLinkToken(context, "share", token);
}

/**
 * Delete (the owner only): the row first, then its stored objects (original and playable copy), so
 * nothing ever points at a missing file. Share links go with the row. A missing object, or one
 * storage cannot remove right now, leaves the deletion done (it is logged). False when the user
 * may not delete it.
 */
export async function deleteAnswer(
  context: Pick<AppContext, "db" | "storage" | "config">,
  userId: string,
  storytellerId: string,
  answerId: string,
): Promise<boolean> {
  const deleted = await inTransaction(context.db, async (tx) => {
    const row = await tx
      .deleteFrom("answers")
      .where("id", "=", answerId)
      .where("storyteller_id", "=", storytellerId)
      .where(answerVisibleTo(tx, "answers", { kind: "owner", userId }))
      .returning(["prompt_id", "storage_key", "playable_storage_key"])
      .executeTakeFirst();
    // The question waits for an answer again, so its code works again.
    if (row) await reopenAnswerCode(tx, context.config, row.prompt_id);
    return row;
  });
  if (!deleted) return false;
  for (const key of [deleted.storage_key, deleted.playable_storage_key]) {
    if (!key) continue;
    await context.storage
      .delete(key)
      .catch((error: Error) =>
        log.warn({ module: "answers", err: error, key }, "could not remove a file after deleting its answer"),
      );
  }
  return true;
}

export type RerecordResult = "requested" | "unreachable" | "not-found";

/**
 * Re-record (the owner only): the prompt is reopened (`rerecord_requested_at`: the Storyteller's
 * next upload replaces this answer once it is in) and its record link sent again, through the send
 * ledger's "resend" row for the Storyteller's channel (made anew, or reset when an earlier resend
 * finished) and the usual send job, due now. Nothing changes when the Storyteller cannot receive,
 * or for anyone but the owner ("not-found").
 */
export async function requestRerecord(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  answerId: string,
  now = new Date(),
): Promise<RerecordResult> {
  return inTransaction(db, async (tx) => {
    const target = await tx
      .selectFrom("answers as a")
      .innerJoin("prompts as p", "p.id", "a.prompt_id")
      .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
      .select(["p.id as prompt_id", ...reachColumns])
      .where("a.id", "=", answerId)
      .where("a.storyteller_id", "=", storytellerId)
      .where(answerVisibleTo(tx, "a", { kind: "owner", userId }))
      .forUpdate("p")
      .executeTakeFirst();
    if (!target) return "not-found";
    if (!canReceive(target)) return "unreachable";
    await tx
      .updateTable("prompts")
      .set({ rerecord_requested_at: now, updated_at: now })
      .where("id", "=", target.prompt_id)
      .execute();
    await deliverNow(tx, { promptId: target.prompt_id, channel: target.delivery_method, purpose: "resend" }, now);
    return "requested";
  });
}
