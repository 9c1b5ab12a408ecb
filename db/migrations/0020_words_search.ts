import { type Kysely, sql } from "kysely";

// The family's words, searched and corrected (issue 21, decision 037).
// - heirloom_words(text): one tsvector for English (stemmed) and any other script ('simple': Hindi in
//   Devanagari, names), so one GIN index per table serves both; queries must use the same function.
// - Trigram indexes (pg_trgm, a trusted extension) for words spelt a little differently
//   (गाँव / गांव, Lakhnau / Lucknow).
// - transcript_edited_over: the machine's words a correction was made over, so a newer machine
//   transcript arriving beside a correction is noticed ("The words were heard again").
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE FUNCTION heirloom_words(words text) RETURNS tsvector
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN to_tsvector('english'::regconfig, coalesce(words, '')) || to_tsvector('simple'::regconfig, coalesce(words, ''));
    CREATE INDEX answers_words_idx ON answers USING gin (heirloom_words(transcript));
    CREATE INDEX answers_words_trgm_idx ON answers USING gin (transcript gin_trgm_ops);
    CREATE INDEX prompts_words_idx ON prompts USING gin (heirloom_words(text));
    CREATE INDEX prompts_words_trgm_idx ON prompts USING gin (text gin_trgm_ops);
    ALTER TABLE answers ADD COLUMN transcript_edited_over text;
    UPDATE answers SET transcript_edited_over = machine_transcript WHERE transcript_edited_at IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers DROP COLUMN transcript_edited_over;
    DROP INDEX prompts_words_trgm_idx;
    DROP INDEX prompts_words_idx;
    DROP INDEX answers_words_trgm_idx;
    DROP INDEX answers_words_idx;
    DROP FUNCTION heirloom_words(text);
  `.execute(db);
}
