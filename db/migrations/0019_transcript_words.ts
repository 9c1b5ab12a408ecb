import { type Kysely, sql } from "kysely";

// Every answer in words (issue 21). `transcript` stays the words the family sees; with it now come
// their timings (`transcript_segments`, the same words cut where the voice pauses), what the speech
// engine heard as it came (`machine_*`, kept when the family corrects it), and who corrected it last.
// "waiting": no speech engine or model is installed yet; such answers are transcribed, oldest first,
// once one is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers
      ADD COLUMN transcript_segments jsonb,
      ADD COLUMN machine_transcript text,
      ADD COLUMN machine_segments jsonb,
      ADD COLUMN transcript_edited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      ADD COLUMN transcript_edited_at timestamptz,
      DROP CONSTRAINT answers_transcript_status_check,
      ADD CONSTRAINT answers_transcript_status_check
        CHECK (transcript_status IN ('pending', 'waiting', 'done', 'none', 'failed'));
    CREATE INDEX answers_transcript_waiting_idx ON answers (created_at) WHERE transcript_status = 'waiting';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX answers_transcript_waiting_idx;
    UPDATE answers SET transcript_status = 'pending' WHERE transcript_status = 'waiting';
    ALTER TABLE answers
      DROP CONSTRAINT answers_transcript_status_check,
      ADD CONSTRAINT answers_transcript_status_check
        CHECK (transcript_status IN ('pending', 'done', 'none', 'failed')),
      DROP COLUMN transcript_edited_at,
      DROP COLUMN transcript_edited_by,
      DROP COLUMN machine_segments,
      DROP COLUMN machine_transcript,
      DROP COLUMN transcript_segments;
  `.execute(db);
}
