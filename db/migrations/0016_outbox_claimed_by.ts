import { type Kysely, sql } from "kysely";

// Which job claimed a message being sent (graphile-worker's job id). A second job that finds the
// message "sending" under another live claim leaves it alone instead of reconciling it while the
// first is still waiting on the provider (decision 025).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox_messages ADD COLUMN claimed_by text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox_messages DROP COLUMN claimed_by`.execute(db);
}
