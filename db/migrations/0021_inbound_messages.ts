import { type Kysely, sql } from "kysely";

// Twilio retries a webhook it got no answer to, and anyone holding a signed request can replay it:
// each inbound text is handled once, keyed by its MessageSid (one row per event), in the same
// transaction as what it changes, so a replayed STOP adds no second consent row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE inbound_messages (
      message_sid text PRIMARY KEY CHECK (message_sid ~ '^(SM|MM)[0-9a-f]{32}$'),
      received_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE inbound_messages`.execute(db);
}
