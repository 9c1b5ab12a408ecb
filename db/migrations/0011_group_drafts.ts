import { type Kysely, sql } from "kysely";

// Add Group is three steps (name, Storyteller, invitations) of plain form posts: each finished step
// is kept here, one draft per user, as onboarding_drafts keeps the onboarding wizard's.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE group_drafts (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      data jsonb NOT NULL DEFAULT '{}',
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE group_drafts;`.execute(db);
}
