import { type Kysely, sql } from "kysely";

// Every step of a call that lists a Storyteller's open questions asks whether a question already has
// a phone recording waiting or kept (phone-call.server.ts): by prompt, inside Twilio's webhook
// timeout, so by index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX phone_recordings_open_prompt_idx ON phone_recordings (prompt_id)
      WHERE status IN ('pending', 'kept');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX phone_recordings_open_prompt_idx`.execute(db);
}
