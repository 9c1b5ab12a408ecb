import { type Kysely, sql } from "kysely";

// An unsubscribe belongs to the address, not to one Storyteller row: editing the Storyteller's email
// away and back, or adding the address again, must not undo it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE email_opt_outs (
      email text PRIMARY KEY CHECK (email = lower(email)),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO email_opt_outs (email, created_at)
      SELECT lower(email), min(unsubscribed_at) FROM storytellers
      WHERE unsubscribed_at IS NOT NULL AND email IS NOT NULL GROUP BY lower(email)
      ON CONFLICT DO NOTHING;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS email_opt_outs`.execute(db);
}
