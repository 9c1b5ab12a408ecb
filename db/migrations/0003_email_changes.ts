import { type Kysely, sql } from "kysely";

// A requested change of a user's email, waiting for the code sent to the new address.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE email_changes (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      new_email text NOT NULL,
      code_hash text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS email_changes`.execute(db);
}
