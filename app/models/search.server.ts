import { sql } from "kysely";
import { noControlCharacters } from "~/utils/validation";
import type { DbOrTx } from "../../db/client";
import { answerVisibleTo, isOwnAnswer } from "./access.server";

/**
 * Search every story by what was said (decision 037): the words of the answers and
 * their questions, in English (stemmed: "walking" finds "walked"; an irregular verb's forms are
 * rewritten into each other, "swim" finds "swam", from migration 0040's table) and in any script
 * ('simple': Hindi in Devanagari, names), plus trigram similarity for words spelt a little differently. Only
 * among the answers the user may hear: the media route's rule (answerForListener), so a removed
 * collaborator finds nothing. One statement whatever the numbers; the matches come from the GIN
 * indexes of migration 0020 (heirloom_words and gin_trgm_ops on answers and prompts).
 */

export const MAX_QUERY_CHARS = 200;
export const SEARCH_LIMIT = 30;
/** Around the matched words in a snippet; never in the words themselves (they refuse control characters). */
export const MARK_START = "\u0001";
export const MARK_END = "\u0002";

export type SearchHit = {
  id: string;
  question: string;
  storytellerName: string;
  answeredAt: Date;
  /** The answer's words around what matched, the matching words between MARK_START and MARK_END. */
  snippet: string | null;
  /** The question, marked the same way. */
  questionMarked: string;
  /** Where the first matching segment starts (seconds), to play from there; null without timings. */
  startAt: number | null;
  /** Where the answer is kept: its Storyteller's Sent tab, or My Stories for one's own. */
  href: string;
};

export type SearchQuery = { ok: true; query: string } | { ok: false; problem: "empty" | "tooLong" | "invalid" };

/** The search box's text, checked: trimmed, not too long, nothing PostgreSQL would refuse. */
export function parseSearchQuery(value: string | null | undefined): SearchQuery {
  const query = (value ?? "").replace(/\s+/g, " ").trim();
  if (!query) return { ok: false, problem: "empty" };
  if (query.length > MAX_QUERY_CHARS) return { ok: false, problem: "tooLong" };
  if (!noControlCharacters(query)) return { ok: false, problem: "invalid" };
  return { ok: true, query };
}

const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxFragments=2, MaxWords=30, MinWords=12, FragmentDelimiter=" … "`;
const WHOLE = `StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`;

/** The best matches (at most SEARCH_LIMIT), best first, among the answers the user may hear. */
export async function searchAnswers(
  db: DbOrTx,
  viewer: { id: string; email: string },
  query: string,
): Promise<SearchHit[]> {
  const heard = answerVisibleTo(db, "a", { kind: "listener", userId: viewer.id, email: viewer.email });
  const own = isOwnAnswer("a", viewer);
  // Trigrams only for a word long enough to have some: "a" is like everything.
  const fuzzy = Array.from(query).length >= 3;
  const { rows } = await sql<{
    id: string;
    question: string;
    nickname: string;
    created_at: Date;
    snippet: string | null;
    question_marked: string;
    start_at: number | null;
    prompt_id: string;
    storyteller_id: string;
    own: boolean;
  }>`
    with q as (
      select ts_rewrite(
          websearch_to_tsquery('english', ${query}) || websearch_to_tsquery('simple', ${query}),
          'select target, substitute from english_word_forms'
        ) as tsq,
        ${query}::text as raw
    ), asked as (
      -- The questions whose words match, through their own GIN indexes.
      select p.id from prompts p, q
      where heirloom_words(p.text) @@ q.tsq or (${fuzzy} and p.text %> q.raw)
    ), matched as (
      -- Each half reads its GIN indexes and keeps what the user may hear (answerVisibleTo);
      -- the answer's columns come along, so the table is not read again.
      select a.id, a.prompt_id, a.storyteller_id, a.created_at, a.transcript, a.transcript_status,
        a.transcript_segments, ${own} as own
      from answers a, q
      where (heirloom_words(a.transcript) @@ q.tsq or (${fuzzy} and a.transcript %> q.raw)) and ${heard}
      union
      -- A question has one answer: looked up by its prompt id ("limit 1" keeps the planner from
      -- hashing the whole answers table instead, which it prefers while the table is small).
      select a.* from asked, lateral (
        select a.id, a.prompt_id, a.storyteller_id, a.created_at, a.transcript, a.transcript_status,
          a.transcript_segments, ${own} as own
        from answers a where a.prompt_id = asked.id and ${heard} limit 1
      ) a
    ), best as (
      -- Ranked and cut to the page first: the snippets, the marked question and the first matching
      -- segment are worked out for these rows only, not for every answer a common word matches.
      select a.id, a.prompt_id, a.storyteller_id, a.created_at, a.transcript, a.transcript_status,
        a.transcript_segments, a.own, p.text as question,
        ts_rank(heirloom_words(a.transcript), q.tsq) + ts_rank(heirloom_words(p.text), q.tsq)
          + case when ${fuzzy} then word_similarity(q.raw, coalesce(a.transcript, '')) / 4 else 0 end as score
      from matched a join prompts p on p.id = a.prompt_id, q
      order by score desc, a.created_at desc, a.id
      limit ${SEARCH_LIMIT}
    )
    select a.id, a.question, s.nickname, a.created_at, a.prompt_id, a.storyteller_id, a.own,
      case when a.transcript_status = 'done' and a.transcript is not null
        then ts_headline('english', a.transcript, q.tsq, ${HEADLINE}) end as snippet,
      ts_headline('english', a.question, q.tsq, ${WHOLE}) as question_marked,
      hit.start_at
    from best a
    join storytellers s on s.id = a.storyteller_id
    cross join q
    left join lateral (
      select (segment->>'start')::float8 as start_at
      from jsonb_array_elements(
        case when jsonb_typeof(a.transcript_segments) = 'array' then a.transcript_segments else '[]'::jsonb end
      ) as segment
      where heirloom_words(segment->>'text') @@ q.tsq or (${fuzzy} and (segment->>'text') %> q.raw)
      order by (segment->>'start')::float8
      limit 1
    ) hit on true
    order by a.score desc, a.created_at desc, a.id
  `.execute(db);
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    // As the family calls her, like the Timeline ("Nani", not her first name).
    storytellerName: row.nickname,
    answeredAt: row.created_at,
    snippet: row.snippet,
    questionMarked: row.question_marked,
    startAt: row.start_at,
    href: row.own
      ? "/dashboard/mystories"
      : `/dashboard/recipient/${row.storyteller_id}?sent=true#prompt-${row.prompt_id}`,
  }));
}
