import { type Kysely, sql } from "kysely";

// "Record a story" (My Stories): a user's own stories are prompts and answers like any other, under
// one Storyteller row that stands for the user themself. It is never sent anything (no schedule) and
// never listed among the Storytellers they ask; at most one per user.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE storytellers ADD COLUMN is_self boolean NOT NULL DEFAULT false;
    CREATE UNIQUE INDEX storytellers_self_key ON storytellers (owner_id) WHERE is_self;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX storytellers_self_key;
    ALTER TABLE storytellers DROP COLUMN is_self;
  `.execute(db);
}
