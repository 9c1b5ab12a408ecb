import { sql } from "kysely";
import { isUuid } from "~/utils/ids";
import type { WordsStatus } from "~/utils/words";
import type { DbOrTx } from "../../db/client";
import { preparedQuery } from "../../db/prepared";
import { answeredForStorytellerIds, answerVisibleTo, isOwnAnswer, visibleStorytellerIds } from "./access.server";
import { wordsColumns, type WordsRow } from "./transcript-edit.server";

/**
 * The Timeline: every answer the user may hear, newest first, a page at a time. "May hear" is
 * answerVisibleTo's "listener" (access.server.ts), the media route's rule too, read in its two halves
 * so each uses its index: the family's answers (its "family" audience) and the user's own, private
 * ones included (isOwnAnswer, decision 012).
 *
 * Paging is by keyset on (created_at, id), never OFFSET: a page reads at most PAGE_SIZE + 1 entries
 * of one index per Storyteller (migration 0012), so 10,000 answers cost what 10 do. See decision 016.
 */

export const TIMELINE_PAGE_SIZE = 20;

type Viewer = { id: string; email: string };

/** Where the next page starts: the last answer shown, its time to the microsecond (what PostgreSQL keeps). */
export type TimelineCursor = { time: string; id: string };

const CURSOR = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})Z_([0-9a-f-]{36})$/i;

export const formatTimelineCursor = (cursor: TimelineCursor) => `${cursor.time}_${cursor.id}`;

/** A cursor from the address bar, or null for anything that is not one a page gave out (the first page, then). */
export function parseTimelineCursor(value: string | null | undefined): TimelineCursor | null {
  const match = value ? CURSOR.exec(value) : null;
  if (!match) return null;
  const [, year, month, day, hour, minute, second, , id] = match;
  const date = new Date(Date.UTC(+year, +month - 1, +day, +hour, +minute, +second));
  // Only a real instant: 2026-02-30 or 25:00 would otherwise reach the database as an error.
  if (
    Number.isNaN(date.getTime()) ||
    date.getUTCFullYear() !== +year ||
    date.getUTCMonth() !== +month - 1 ||
    date.getUTCDate() !== +day ||
    date.getUTCHours() !== +hour ||
    date.getUTCMinutes() !== +minute ||
    date.getUTCSeconds() !== +second ||
    !isUuid(id)
  )
    return null;
  return { time: value!.slice(0, value!.lastIndexOf("_")), id: id.toLowerCase() };
}

export type TimelineFilter = {
  /** Only this Storyteller's answers; one the user cannot hear gives an empty page, never an error. */
  storytellerId?: string | null;
  before?: TimelineCursor | null;
};

/**
 * Whose answer it is: someone the user asks (family), a story the user recorded themself (self, the
 * is_self Storyteller), or the user's answer to someone else's question (answeredFor).
 */
export type TimelineVoice = "family" | "self" | "answeredFor";

export type TimelineItem = {
  id: string;
  answeredAt: string;
  /** "YYYY-MM" in UTC, what the page groups by. */
  month: string;
  /** Null for a written answer (a reply by email), which has no recording. */
  durationMs: number | null;
  isPrivate: boolean;
  /** Answered by calling in (decision 022): the card says "By phone". */
  viaPhone: boolean;
  transcript: string | null;
  transcriptStatus: WordsStatus;
  /** The words with their timings and corrections, for wordsView. */
  words: WordsRow;
  question: string;
  storytellerId: string;
  storytellerName: string;
  voice: TimelineVoice;
  /** Who asked the question: the prompt's author, else the Storyteller's owner. */
  askerName: string;
};

const utcMicros = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** One page of the Timeline's rows: the newest answers the viewer may hear, past the cursor. */
function timelineQuery(
  db: DbOrTx,
  viewerId: string,
  email: string,
  storytellerId: string | null,
  before: TimelineCursor | null,
) {
  const limit = TIMELINE_PAGE_SIZE + 1;
  const olderThanCursor = before
    ? sql<boolean>`(a.created_at, a.id) < (${before.time}::timestamptz, ${before.id}::uuid)`
    : sql<boolean>`true`;

  // The family's answers: per visible Storyteller, its newest non-private ones past the cursor.
  let visible = db.selectFrom(visibleStorytellerIds(db, viewerId).as("v"));
  if (storytellerId) visible = visible.where("v.id", "=", storytellerId);
  const family = visible
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("answers as a")
        .select(["a.id", "a.created_at"])
        .whereRef("a.storyteller_id", "=", "v.id")
        .where(answerVisibleTo(db, "a", { kind: "family", userId: viewerId }))
        .where(olderThanCursor)
        .orderBy("a.created_at", "desc")
        .orderBy("a.id", "desc")
        .limit(limit)
        .as("x"),
    )
    .select(["x.id", "x.created_at"]);

  // The user's own, as the Storyteller the record links went to: private ones too.
  let ownQuery = db
    .selectFrom("answers as a")
    .select(["a.id", "a.created_at"])
    .where(isOwnAnswer("a", { email }))
    .where(olderThanCursor);
  if (storytellerId) ownQuery = ownQuery.where("a.storyteller_id", "=", storytellerId);
  const own = db
    .selectFrom(ownQuery.orderBy("a.created_at", "desc").orderBy("a.id", "desc").limit(limit).as("o"))
    .select(["o.id", "o.created_at"]);

  const page = db
    .selectFrom(family.union(own).as("u"))
    .select(["u.id", "u.created_at"])
    .orderBy("u.created_at", "desc")
    .orderBy("u.id", "desc")
    .limit(limit);

  return db
    .selectFrom(page.as("page"))
    .innerJoin("answers as a", "a.id", "page.id")
    .innerJoin("prompts as p", "p.id", "a.prompt_id")
    .innerJoin("storytellers as s", "s.id", "a.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .select((eb) => [
      "a.id",
      "a.created_at",
      utcMicros("a.created_at").as("cursor_time"),
      "a.duration_ms",
      "a.is_private",
      "a.via_phone",
      "a.transcript",
      "a.transcript_status",
      isOwnAnswer("a", { email }).as("own"),
      "p.text as question",
      "s.id as storyteller_id",
      "s.nickname",
      "s.is_self",
      "s.owner_id",
      eb.fn.coalesce("asker.first_name", "owner.first_name").as("asker_name"),
      ...wordsColumns,
    ])
    .orderBy("a.created_at", "desc")
    .orderBy("a.id", "desc");
}

const firstPageQuery = preparedQuery(
  ["viewerId", "email"],
  (db, { viewerId, email }: { viewerId: string; email: string }) => timelineQuery(db, viewerId, email, null, null),
);

/** One page of the Timeline (two index walks and a join, in one statement) and where the next one starts. */
export async function getTimelinePage(
  db: DbOrTx,
  viewer: Viewer,
  filter: TimelineFilter = {},
): Promise<{ items: TimelineItem[]; nextCursor: string | null }> {
  const email = viewer.email.toLowerCase();
  const storytellerId = filter.storytellerId && isUuid(filter.storytellerId) ? filter.storytellerId : null;
  const before = filter.before ?? null;
  // The first page, unfiltered (the Timeline's and the overview's every load), is compiled once.
  const rows =
    storytellerId || before
      ? await timelineQuery(db, viewer.id, email, storytellerId, before).execute()
      : await firstPageQuery(db, { viewerId: viewer.id, email });

  const shown = rows.slice(0, TIMELINE_PAGE_SIZE);
  const last = shown.at(-1);
  return {
    items: shown.map((r) => ({
      id: r.id,
      answeredAt: r.created_at.toISOString(),
      month: r.cursor_time.slice(0, 7),
      durationMs: r.duration_ms,
      isPrivate: r.is_private,
      viaPhone: r.via_phone,
      transcript: r.transcript,
      transcriptStatus: r.transcript_status,
      words: {
        transcript: r.transcript,
        transcript_status: r.transcript_status,
        transcript_segments: r.transcript_segments,
        transcript_edited_at: r.transcript_edited_at,
        transcript_editor: r.transcript_editor,
        heard_again: r.heard_again,
        written_beside: r.written_beside,
      },
      question: r.question,
      storytellerId: r.storyteller_id,
      storytellerName: r.nickname,
      voice: r.is_self && r.owner_id === viewer.id ? "self" : r.own ? "answeredFor" : "family",
      askerName: r.asker_name,
    })),
    nextCursor:
      rows.length > TIMELINE_PAGE_SIZE && last ? formatTimelineCursor({ time: last.cursor_time, id: last.id }) : null,
  };
}

/** The answers of a page in runs of one month ("YYYY-MM"), in the page's order. */
export function groupByMonth<T extends { month: string }>(items: T[]): { month: string; items: T[] }[] {
  const groups: { month: string; items: T[] }[] = [];
  for (const item of items) {
    const current = groups.at(-1);
    if (current?.month === item.month) current.items.push(item);
    else groups.push({ month: item.month, items: [item] });
  }
  return groups;
}

export type TimelineStoryteller = {
  id: string;
  /** family: the nickname; self: the user's own stories; answeredFor: their answers to `askerName`. */
  kind: "family" | "self" | "answeredFor";
  name: string;
  askerName: string;
};

/**
 * The filter's choices: the Storytellers whose answers the Timeline may show (the user's, their
 * groups', and those the user answered for as the Storyteller), in one query. The user's own
 * stories' row comes first, then the rest by name.
 */
export async function listTimelineStorytellers(db: DbOrTx, viewer: Viewer): Promise<TimelineStoryteller[]> {
  const rows = await db
    .selectFrom("storytellers as s")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .select((eb) => [
      "s.id",
      "s.nickname",
      "s.is_self",
      "s.owner_id",
      "owner.first_name as owner_name",
      eb("s.id", "in", visibleStorytellerIds(db, viewer.id)).as("visible"),
    ])
    .where((eb) =>
      eb.or([
        eb("s.id", "in", visibleStorytellerIds(db, viewer.id)),
        eb("s.id", "in", answeredForStorytellerIds(db, viewer.email)),
      ]),
    )
    .orderBy("s.is_self", "desc")
    .orderBy("s.nickname")
    .orderBy("s.created_at")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.is_self && r.owner_id === viewer.id ? "self" : r.visible ? "family" : "answeredFor",
    name: r.nickname,
    askerName: r.owner_name,
  }));
}
