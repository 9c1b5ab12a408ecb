import { type Kysely, sql } from "kysely";

// A creating form carries a one-time id drawn with the page; the first post of it claims the id
// here (in the transaction that creates), and a repeat of the same post (a double click without
// JavaScript, a retried request) finds the claim and goes where the first went instead of creating
// again. Kept a day: a page older than that is drawn again before anyone posts it twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE form_submissions (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      location text, -- where the first post went; set before its transaction commits
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, id)
    );
    CREATE INDEX form_submissions_created_idx ON form_submissions (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE form_submissions`.execute(db);
}
