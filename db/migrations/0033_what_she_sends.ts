import { type Kysely, sql } from "kysely";

// What a Storyteller sends on WhatsApp reaches her family (decision 064). A voice note when no
// question is open becomes a story of her own: a prompt marked is_own_story (asked at once, as My
// Stories' own titles are), made by the voice-note job for the Storyteller the note was taken for
// (whatsapp_voice_notes.storyteller_id). A text becomes a storyteller_messages row, which the
// family's notifications point at (notifications.message_id).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE prompts ADD COLUMN is_own_story boolean NOT NULL DEFAULT false;

    ALTER TABLE whatsapp_voice_notes ADD COLUMN storyteller_id uuid REFERENCES storytellers (id) ON DELETE SET NULL;
    CREATE INDEX whatsapp_voice_notes_storyteller_idx ON whatsapp_voice_notes (storyteller_id)
      WHERE storyteller_id IS NOT NULL;

    CREATE TABLE storyteller_messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      storyteller_id uuid NOT NULL REFERENCES storytellers (id) ON DELETE CASCADE,
      message_sid text NOT NULL UNIQUE CHECK (char_length(message_sid) BETWEEN 1 AND 64),
      text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX storyteller_messages_storyteller_idx ON storyteller_messages (storyteller_id, created_at);

    ALTER TABLE notifications ADD COLUMN message_id uuid REFERENCES storyteller_messages (id) ON DELETE CASCADE;
    CREATE INDEX notifications_message_idx ON notifications (message_id) WHERE message_id IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE notifications DROP COLUMN message_id;
    DROP TABLE storyteller_messages;
    ALTER TABLE whatsapp_voice_notes DROP COLUMN storyteller_id;
    ALTER TABLE prompts DROP COLUMN is_own_story;
  `.execute(db);
}
