import { type Kysely, sql } from "kysely";

// The Timeline pages by keyset, newest first: (created_at, id) with id breaking ties. Per Storyteller
// (the family's answers) and per Storyteller's address (their own, private ones included), so a page
// reads about 20 index entries per Storyteller whatever the number of answers. Each replaces the
// narrower index it extends (same leading columns, so their other uses keep an index).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX answers_storyteller_timeline_idx ON answers (storyteller_id, created_at DESC, id DESC);
    DROP INDEX answers_storyteller_idx;
    CREATE INDEX answers_recorded_for_timeline_idx ON answers (recorded_for_email, created_at DESC, id DESC)
      WHERE recorded_for_email IS NOT NULL;
    DROP INDEX answers_recorded_for_email_idx;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX answers_recorded_for_email_idx ON answers (recorded_for_email) WHERE recorded_for_email IS NOT NULL;
    DROP INDEX answers_recorded_for_timeline_idx;
    CREATE INDEX answers_storyteller_idx ON answers (storyteller_id, created_at DESC);
    DROP INDEX answers_storyteller_timeline_idx;
  `.execute(db);
}
