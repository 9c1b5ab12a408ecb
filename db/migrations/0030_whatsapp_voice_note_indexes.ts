import { type Kysely, sql } from "kysely";

// WhatsApp voice notes (migration 0023) point at prompts and answers with ON DELETE SET NULL: without
// an index each such delete scans the table. The hourly cleanup deletes notes past a month by age.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX whatsapp_voice_notes_prompt_idx ON whatsapp_voice_notes (prompt_id) WHERE prompt_id IS NOT NULL;
    CREATE INDEX whatsapp_voice_notes_answer_idx ON whatsapp_voice_notes (answer_id) WHERE answer_id IS NOT NULL;
    CREATE INDEX whatsapp_voice_notes_created_idx ON whatsapp_voice_notes (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX whatsapp_voice_notes_created_idx;
    DROP INDEX whatsapp_voice_notes_answer_idx;
    DROP INDEX whatsapp_voice_notes_prompt_idx;
  `.execute(db);
}
