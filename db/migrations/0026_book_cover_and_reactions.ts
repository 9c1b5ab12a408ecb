import { type Kysely, sql } from "kysely";

// Issue 22 items 7 and 10 (decisions 047, 048):
// - a keepsake book's cover photo, uploaded on the keep page, kept per Storyteller;
// - families answer back: a heart (one per person and answer) or a short note on an answer;
// - the Storyteller hears of them in one note a day at most (one row per local day holds that),
//   which the owner can turn off.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE storytellers
      ADD COLUMN book_cover_key text,
      ADD COLUMN reaction_digest_on boolean NOT NULL DEFAULT true;

    CREATE TABLE answer_reactions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      answer_id uuid NOT NULL REFERENCES answers (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('heart', 'note')),
      note text CHECK ((kind = 'note') = (note IS NOT NULL) AND char_length(note) <= 500),
      created_at timestamptz NOT NULL DEFAULT now(),
      digested_at timestamptz
    );
    CREATE UNIQUE INDEX answer_reactions_one_heart_idx ON answer_reactions (answer_id, user_id) WHERE kind = 'heart';
    CREATE INDEX answer_reactions_answer_idx ON answer_reactions (answer_id, created_at);
    CREATE INDEX answer_reactions_user_idx ON answer_reactions (user_id);

    CREATE TABLE reaction_digests (
      storyteller_id uuid NOT NULL REFERENCES storytellers (id) ON DELETE CASCADE,
      local_day date NOT NULL,
      sent_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (storyteller_id, local_day)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE reaction_digests;
    DROP TABLE answer_reactions;
    ALTER TABLE storytellers DROP COLUMN reaction_digest_on, DROP COLUMN book_cover_key;
  `.execute(db);
}
