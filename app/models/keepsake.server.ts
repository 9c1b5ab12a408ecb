import { sql } from "kysely";
import type { Config } from "~/config.server";
import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { enqueueJob } from "~/services/jobs.server";
import { queueEmail } from "~/services/outbox.server";
import { signCapability } from "~/services/tokens.server";
import { isUuid } from "~/utils/ids";
import { formatDay, readerTimeZone } from "~/utils/intl-formats";
import type { KeepsakeView } from "~/utils/keep-schema";
import type { Binding, Trim } from "~/utils/print-geometry";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";
import { answerVisibleTo, isOwnAnswer, visibleStorytellerIds } from "./access.server";
import { type AnswerAudio, answerForLinkToken } from "./share.server";

/**
 * Keeping it forever (decision 023; docs/product.md): what goes into an export or a book, who may ask for
 * one, the keepsake rows the background jobs fill in, and the permanent listen links a book's QR
 * codes open. Private answers go only into their Storyteller's own export ("everything I can hear"
 * of the user they were recorded for); every other export and every book holds non-private answers
 * of a Storyteller the user may see (owner or collaborator).
 */

/** A finished export or book can be downloaded for this long. */
export const KEEPSAKE_LIFETIME_DAYS = 7;

export type ExportScope = { kind: "storyteller"; storytellerId: string } | { kind: "everything" };

/** One answer as an export or a book holds it. */
export type KeptAnswer = {
  id: string;
  storyteller_id: string;
  storyteller_name: string;
  storyteller_nickname: string;
  storyteller_photo: string | null;
  prompt_text: string;
  asked_by: string;
  asked_at: Date | null;
  answered_at: Date;
  is_private: boolean;
  /** The four are null for a written answer (a reply by email): its words are its transcript. */
  storage_key: string | null;
  content_type: string | null;
  playable_storage_key: string | null;
  playable_content_type: string | null;
  duration_ms: number | null;
  byte_size: string | null;
  transcript: string | null;
  transcript_status: "pending" | "waiting" | "done" | "none" | "failed";
  transcript_segments: unknown;
};

/**
 * The answers an export holds, oldest first: for a Storyteller, its non-private answers when the
 * user may see it (and it is not the user's own-stories row); for "everything", every non-private
 * answer of every Storyteller the user may see plus every answer recorded for the user's address
 * (their own, private ones included). Null when the user may not see the Storyteller.
 */
export async function keptAnswers(db: DbOrTx, userId: string, scope: ExportScope): Promise<KeptAnswer[] | null> {
  if (scope.kind === "storyteller") {
    if (!isUuid(scope.storytellerId)) return null;
    const visible = await db
      .selectFrom("storytellers")
      .select("id")
      .where("id", "=", scope.storytellerId)
      .where("is_self", "=", false)
      .where("id", "in", visibleStorytellerIds(db, userId))
      .executeTakeFirst();
    if (!visible) return null;
  }
  let query = db
    .selectFrom("answers as a")
    .innerJoin("prompts as p", "p.id", "a.prompt_id")
    .innerJoin("storytellers as s", "s.id", "a.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .select((eb) => [
      "a.id",
      "a.storyteller_id",
      "s.first_name as storyteller_name",
      "s.nickname as storyteller_nickname",
      "s.profile_pic_key as storyteller_photo",
      "p.text as prompt_text",
      eb.fn.coalesce("asker.first_name", "owner.first_name").as("asked_by"),
      "p.sent_at as asked_at",
      "a.created_at as answered_at",
      "a.is_private",
      "a.storage_key",
      "a.content_type",
      "a.playable_storage_key",
      "a.playable_content_type",
      "a.duration_ms",
      "a.byte_size",
      "a.transcript",
      "a.transcript_status",
      "a.transcript_segments",
    ]);
  query =
    scope.kind === "storyteller"
      ? query
          .where("a.storyteller_id", "=", scope.storytellerId)
          .where(answerVisibleTo(db, "a", { kind: "family", userId }))
      : query.where(answerVisibleTo(db, "a", { kind: "listener", userId }));
  return query.orderBy("s.first_name").orderBy("a.storyteller_id").orderBy("a.created_at").orderBy("a.id").execute();
}

/** A kept answer that has a recording (not a written one). */
export type KeptRecording = KeptAnswer & {
  storage_key: string;
  content_type: string;
  duration_ms: number;
  byte_size: string;
};

/** The kept answers the export holds: those with a recording (written ones are not in it yet). */
export async function keptRecordings(db: DbOrTx, userId: string, scope: ExportScope): Promise<KeptRecording[] | null> {
  const answers = await keptAnswers(db, userId, scope);
  return answers && answers.filter((answer): answer is KeptRecording => answer.storage_key !== null);
}

/** The Storyteller a keep page is about, when the user may see it (owner or collaborator). */
export async function keepStoryteller(db: DbOrTx, userId: string, storytellerId: string) {
  if (!isUuid(storytellerId)) return null;
  return (
    (await db
      .selectFrom("storytellers")
      .select(["id", "first_name", "nickname", "language", "profile_pic_key", "book_cover_key", "owner_id"])
      .where("id", "=", storytellerId)
      .where("is_self", "=", false)
      .where("id", "in", visibleStorytellerIds(db, userId))
      .executeTakeFirst()) ?? null
  );
}

/** The user's own keepsakes, newest first: all of them, or those of one Storyteller (null: "everything"). */
export async function listKeepsakes(
  db: DbOrTx,
  userId: string,
  filter: { storytellerId?: string | null } = {},
  now = new Date(),
): Promise<KeepsakeView[]> {
  let query = db
    .selectFrom("keepsakes")
    .select([
      "id",
      "kind",
      "storyteller_id",
      "status",
      "progress",
      "byte_size",
      "error",
      "created_at",
      "expires_at",
      "storage_key",
      sql<boolean>`options ? 'print'`.as("print"),
    ])
    .where("user_id", "=", userId);
  if (filter.storytellerId !== undefined) {
    query =
      filter.storytellerId === null
        ? query.where("storyteller_id", "is", null)
        : query.where("storyteller_id", "=", filter.storytellerId);
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(20).execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    print: row.print,
    storytellerId: row.storyteller_id,
    status: row.status,
    progress: row.progress,
    byteSize: row.byte_size === null ? null : Number(row.byte_size),
    error: row.error,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    downloadable: row.status === "ready" && !!row.storage_key && !!row.expires_at && row.expires_at > now,
  }));
}

/** Queues a large export: a keepsake row and its job, in one transaction. */
export async function requestExport(db: DbOrTx, userId: string, scope: ExportScope) {
  return inTransaction(db, async (tx) => {
    const row = await tx
      .insertInto("keepsakes")
      .values({
        user_id: userId,
        storyteller_id: scope.kind === "storyteller" ? scope.storytellerId : null,
        kind: "export",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueJob(tx, "keepsake__export", { keepsakeId: row.id });
    return row.id;
  });
}

export type BookOptions = {
  title: string;
  /** In the order the pages follow. */
  answerIds: string[];
  paper: "a4" | "letter";
  cover: "none" | "storyteller" | "uploaded";
  /** The frame's language; books asked for before the choice are in the Storyteller's. */
  language?: Language;
  /** Print-ready files (interior and cover) for this trim and binding, instead of the home PDF. */
  print?: { trim: Trim; binding: Binding };
};

export type RequestBookResult = { kind: "queued"; id: string } | { kind: "not-found" } | { kind: "no-answers" };

/**
 * Queues a book of a Storyteller's non-private answers, in the order given. Ids that are not such
 * an answer are dropped; none left is "no-answers".
 */
export async function requestBook(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  options: BookOptions,
): Promise<RequestBookResult> {
  const answers = await keptAnswers(db, userId, { kind: "storyteller", storytellerId });
  if (!answers) return { kind: "not-found" };
  const allowed = new Set(answers.map((answer) => answer.id));
  const answerIds = [...new Set(options.answerIds)].filter((id) => allowed.has(id));
  if (!answerIds.length) return { kind: "no-answers" };
  const id = await inTransaction(db, async (tx) => {
    const row = await tx
      .insertInto("keepsakes")
      .values({
        user_id: userId,
        storyteller_id: storytellerId,
        kind: "book",
        options: JSON.stringify({ ...options, answerIds }),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueJob(tx, "keepsake__book", { keepsakeId: row.id });
    return row.id;
  });
  return { kind: "queued", id };
}

/**
 * Keeps an uploaded cover photo for the Storyteller's books (owner or collaborator). Returns the
 * photo it replaces, for the caller to delete from storage, or "not-found".
 */
export async function setBookCover(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  key: string,
): Promise<{ kind: "saved"; replaced: string | null } | { kind: "not-found" }> {
  return inTransaction(db, async (tx) => {
    const storyteller = await keepStoryteller(tx, userId, storytellerId);
    if (!storyteller) return { kind: "not-found" };
    await tx.updateTable("storytellers").set({ book_cover_key: key }).where("id", "=", storyteller.id).execute();
    return { kind: "saved", replaced: storyteller.book_cover_key };
  });
}

/** A keepsake for its job: whoever asked, what for, and its options. */
export async function keepsakeForJob(db: DbOrTx, keepsakeId: string) {
  return (
    (await db
      .selectFrom("keepsakes as k")
      .innerJoin("users as u", "u.id", "k.user_id")
      .select([
        "k.id",
        "k.kind",
        "k.user_id",
        "k.storyteller_id",
        "k.status",
        "k.options",
        "u.email",
        "u.first_name",
        "u.language",
        "u.time_zone",
      ])
      .where("k.id", "=", keepsakeId)
      .executeTakeFirst()) ?? null
  );
}

/** The job's progress (0–100), shown on the page. */
export async function setKeepsakeProgress(db: DbOrTx, keepsakeId: string, progress: number) {
  await db
    .updateTable("keepsakes")
    .set({ status: "building", progress: Math.max(0, Math.min(99, Math.round(progress))) })
    .where("id", "=", keepsakeId)
    .where("status", "in", ["queued", "building"])
    .execute();
}

/** Marks a keepsake failed with a reason the page can explain (e.g. "no-chromium"). */
export async function failKeepsake(db: DbOrTx, keepsakeId: string, reason: string) {
  await db.updateTable("keepsakes").set({ status: "failed", error: reason }).where("id", "=", keepsakeId).execute();
}

/**
 * The file is in storage: the keepsake is ready for 7 days, and its owner gets a notification and
 * an email (in their language) with the download link.
 */
export async function finishKeepsake(
  db: DbOrTx,
  config: Pick<Config, "APP_NAME" | "APP_URL">,
  keepsakeId: string,
  file: { key: string; size: number },
  now = new Date(),
  /** An "everything" export's Storytellers, which every download checks the user may still hear. */
  storytellerIds?: string[],
) {
  await inTransaction(db, async (tx) => {
    const expiresAt = new Date(now.getTime() + KEEPSAKE_LIFETIME_DAYS * 86_400_000);
    const row = await tx
      .updateTable("keepsakes as k")
      .from("users as u")
      .set({
        status: "ready",
        progress: 100,
        storage_key: file.key,
        byte_size: file.size,
        ready_at: now,
        expires_at: expiresAt,
        error: null,
        ...(storytellerIds ? { options: sql`k.options || ${JSON.stringify({ storytellerIds })}::jsonb` } : {}),
      })
      .whereRef("u.id", "=", "k.user_id")
      .where("k.id", "=", keepsakeId)
      .returning(["k.user_id", "k.kind", "k.storyteller_id", "u.email", "u.first_name", "u.language", "u.time_zone"])
      .executeTakeFirst();
    if (!row) return;
    await tx
      .insertInto("notifications")
      .values({
        user_id: row.user_id,
        type: row.kind === "book" ? "book_ready" : "export_ready",
        storyteller_id: row.storyteller_id,
      })
      .execute();
    const t = await getServerT(row.language, { config }, "keep");
    const url = keepsakeDownloadUrl(config, keepsakeId);
    const expires = formatDay(row.language, expiresAt, readerTimeZone(row), "long");
    const kind = row.kind === "book" ? "book" : "export";
    await queueEmail(tx, {
      to: row.email,
      subject: t(`email.${kind}.subject`, { appName: config.APP_NAME }),
      text: t(`email.${kind}.text`, { name: row.first_name, url, expires, appName: config.APP_NAME }),
    });
  });
}

export const keepsakeDownloadPath = (keepsakeId: string) => `/dashboard/keep/${keepsakeId}/download`;
export const keepsakeDownloadUrl = (config: Pick<Config, "APP_URL">, keepsakeId: string) =>
  `${config.APP_URL}${keepsakeDownloadPath(keepsakeId)}`;

/** A finished keepsake its maker may download now (ready, not expired, still theirs to hear), or null. */
export async function downloadableKeepsake(db: DbOrTx, userId: string, keepsakeId: string, now = new Date()) {
  if (!isUuid(keepsakeId)) return null;
  return (
    (await db
      .selectFrom("keepsakes as k")
      .leftJoin("storytellers as s", "s.id", "k.storyteller_id")
      .select(["k.id", "k.kind", "k.storage_key", "k.created_at", "k.options", "s.first_name", "s.nickname"])
      .where("k.id", "=", keepsakeId)
      .where("k.user_id", "=", userId)
      // Checked now, not when it was made (decision 063): a member removed since loses it. An
      // "everything" export names the Storytellers it holds (options.storytellerIds, written when it
      // is finished): each must still be one the user sees or answered for.
      .where((eb) =>
        eb.or([
          eb("k.storyteller_id", "in", visibleStorytellerIds(db, userId)),
          eb.and([
            eb("k.storyteller_id", "is", null),
            sql<boolean>`jsonb_typeof(k.options -> 'storytellerIds') = 'array'`,
            sql<boolean>`not exists (
              select 1 from jsonb_array_elements_text(k.options -> 'storytellerIds') as held(id)
              where held.id::uuid not in (${visibleStorytellerIds(db, userId)})
                and not exists (
                  select 1 from answers a where a.storyteller_id = held.id::uuid and ${isOwnAnswer("a", { userId })}
                ))`,
          ]),
        ]),
      )
      .where("k.status", "=", "ready")
      .where("k.expires_at", ">", now)
      .where("k.storage_key", "is not", null)
      .executeTakeFirst()) ?? null
  );
}

/** Keepsakes past their 7 days whose files are still stored (for the cleanup job). */
export async function expiredKeepsakeFiles(db: DbOrTx, now = new Date()) {
  return db
    .selectFrom("keepsakes")
    .select(["id", "storage_key"])
    .where("expires_at", "<=", now)
    .where("storage_key", "is not", null)
    .limit(500)
    .execute();
}

export async function forgetKeepsakeFile(db: DbOrTx, keepsakeId: string) {
  await db.updateTable("keepsakes").set({ storage_key: null }).where("id", "=", keepsakeId).execute();
}

// ——— Listen links: a book's QR codes ———

export const listenUrl = (config: Pick<Config, "APP_URL">, token: string) => `${config.APP_URL}/l/${token}`;

/**
 * The live listen link of each answer (made when missing), as a URL, for a book's QR codes. The
 * caller has already checked the answers (the book's job, from answers its requester could see).
 */
export async function listenUrlsFor(
  context: Pick<AppContext, "db" | "config">,
  userId: string,
  answerIds: string[],
): Promise<Map<string, string>> {
  const links = await inTransaction(context.db, async (tx) => {
    const ids = new Map<string, string>();
    for (const answerId of answerIds) {
      // Locking the answer row: two books at once end with one link per answer.
      const answer = await tx
        .selectFrom("answers")
        .select("id")
        .where("id", "=", answerId)
        .where(answerVisibleTo(tx, "answers", { kind: "anyone" }))
        .forUpdate()
        .executeTakeFirst();
      if (!answer) continue;
      const live = await tx
        .selectFrom("listen_links")
        .select("id")
        .where("answer_id", "=", answerId)
        .where("revoked_at", "is", null)
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      const id =
        live?.id ??
        (
          await tx
            .insertInto("listen_links")
            .values({ answer_id: answerId, created_by_user_id: userId })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      ids.set(answerId, id);
    }
    return ids;
  });
  const urls = new Map<string, string>();
  for (const [answerId, linkId] of links)
    urls.set(answerId, listenUrl(context.config, await signCapability(context.config, "listen", linkId)));
  return urls;
}

/** A Storyteller's live listen links (for its keep page), newest first. */
export async function listListenLinks(db: DbOrTx, userId: string, storytellerId: string) {
  return db
    .selectFrom("listen_links as l")
    .innerJoin("answers as a", "a.id", "l.answer_id")
    .innerJoin("prompts as p", "p.id", "a.prompt_id")
    .select(["l.id", "l.created_at", "p.text as prompt_text"])
    .where("a.storyteller_id", "=", storytellerId)
    .where("a.storyteller_id", "in", visibleStorytellerIds(db, userId))
    .where("l.revoked_at", "is", null)
    .orderBy("l.created_at", "desc")
    .orderBy("l.id")
    .execute();
}

/** Revokes one listen link of a Storyteller the user may see (owner or collaborator); false otherwise. */
export async function revokeListenLink(
  db: DbOrTx,
  userId: string,
  storytellerId: string,
  linkId: string,
  now = new Date(),
): Promise<boolean> {
  if (!isUuid(linkId)) return false;
  const result = await db
    .updateTable("listen_links")
    .set({ revoked_at: now })
    .where("id", "=", linkId)
    .where("revoked_at", "is", null)
    .where(
      "answer_id",
      "in",
      db
        .selectFrom("answers")
        .select("id")
        .where("storyteller_id", "=", storytellerId)
        .where("storyteller_id", "in", visibleStorytellerIds(db, userId)),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a listen link opens (`answerForLinkToken`). */
export function answerForListenToken(
  context: Pick<AppContext, "db" | "config">,
  token: string,
): Promise<AnswerAudio | null> {
  return answerForLinkToken(context, "listen", token);
}
