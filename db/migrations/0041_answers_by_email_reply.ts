import { type Kysely, sql } from "kysely";

// Answering by replying to the question email (decision 078):
// - a written answer has no recording: the four audio columns are null together, and
//   answers.written_text keeps her words exactly as she wrote them (every reply, in order);
// - email_replies: one row per inbound MessageID (Postmark retries, a reply posted twice), which
//   also holds a reply from another address until the owner accepts or discards it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers
      ALTER COLUMN storage_key DROP NOT NULL,
      ALTER COLUMN content_type DROP NOT NULL,
      ALTER COLUMN byte_size DROP NOT NULL,
      ALTER COLUMN duration_ms DROP NOT NULL,
      ADD COLUMN written_text text,
      ADD CONSTRAINT answers_recording_or_words_check CHECK (
        (storage_key IS NOT NULL AND content_type IS NOT NULL AND byte_size IS NOT NULL AND duration_ms IS NOT NULL)
        OR (storage_key IS NULL AND content_type IS NULL AND byte_size IS NULL AND duration_ms IS NULL
            AND written_text IS NOT NULL)
      );

    CREATE TABLE email_replies (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      message_id text NOT NULL UNIQUE,
      prompt_id uuid REFERENCES prompts (id) ON DELETE CASCADE,
      from_address text NOT NULL,
      status text NOT NULL CHECK (status IN ('answered', 'added', 'held', 'refused', 'discarded')),
      -- What a held reply said, until the owner accepts or discards it.
      held_text text,
      answer_id uuid REFERENCES answers (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX email_replies_held_idx ON email_replies (prompt_id) WHERE status = 'held';
    CREATE INDEX email_replies_created_idx ON email_replies (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE email_replies;
    DELETE FROM answers WHERE storage_key IS NULL;
    ALTER TABLE answers
      DROP CONSTRAINT answers_recording_or_words_check,
      DROP COLUMN written_text,
      ALTER COLUMN storage_key SET NOT NULL,
      ALTER COLUMN content_type SET NOT NULL,
      ALTER COLUMN byte_size SET NOT NULL,
      ALTER COLUMN duration_ms SET NOT NULL;
  `.execute(db);
}
