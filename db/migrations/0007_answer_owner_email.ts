import { type Kysely, sql } from "kysely";

// Who may hear an answer as "its Storyteller": the address its record link was sent to, kept with
// the answer. The Storyteller row's email is the owner's to edit; this is not.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers ADD COLUMN recorded_for_email text;
    UPDATE answers a SET recorded_for_email = lower(s.email)
      FROM storytellers s WHERE s.id = a.storyteller_id AND s.delivery_method = 'email' AND s.email IS NOT NULL;
    CREATE INDEX answers_recorded_for_email_idx ON answers (recorded_for_email) WHERE recorded_for_email IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE answers DROP COLUMN IF EXISTS recorded_for_email`.execute(db);
}
