import { type Kysely, sql } from "kysely";

// What the record page and answer actions need beyond the core tables.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- First time the Storyteller opened the question (the "listened" notification, sent once).
    ALTER TABLE prompts ADD COLUMN opened_at timestamptz;
    -- The owner asked for a new recording: the next upload replaces the answer (only once it is in).
    ALTER TABLE prompts ADD COLUMN rerecord_requested_at timestamptz;
    -- The upload an answer came from, so finishing the same upload twice makes one answer.
    ALTER TABLE answers ADD COLUMN upload_id text UNIQUE;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers DROP COLUMN IF EXISTS upload_id;
    ALTER TABLE prompts DROP COLUMN IF EXISTS rerecord_requested_at, DROP COLUMN IF EXISTS opened_at;
  `.execute(db);
}
