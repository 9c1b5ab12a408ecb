import { type Kysely, sql } from "kysely";

// Answer codes that grow with the site, limits that slow a guesser (decision 022):
// - each code keeps the length it was made with (6 to 12 digits; the codes made so far are 6);
// - wrong codes are kept once per caller and digits (as their HMAC, never the digits: a near miss
//   says much about a real code), with the first and the last time they were tried; the old rows
//   (a day of wrong codes at most) are not carried over;
// - the MessageSid ledger of inbound texts is swept after 30 days, by the time it was received.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answer_codes ADD COLUMN length smallint NOT NULL DEFAULT 6 CHECK (length BETWEEN 6 AND 12);
    CREATE INDEX answer_codes_length_idx ON answer_codes (length);

    DROP TABLE phone_code_failures;
    CREATE TABLE phone_code_failures (
      caller_e164 text NOT NULL,
      code_hmac text NOT NULL,
      called_e164 text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (caller_e164, code_hmac)
    );
    CREATE INDEX phone_code_failures_called_idx ON phone_code_failures (called_e164, last_at);
    CREATE INDEX phone_code_failures_last_idx ON phone_code_failures (last_at);

    CREATE INDEX inbound_messages_received_idx ON inbound_messages (received_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX inbound_messages_received_idx;
    DROP TABLE phone_code_failures;
    CREATE TABLE phone_code_failures (
      id bigserial PRIMARY KEY,
      caller_e164 text NOT NULL,
      called_e164 text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX phone_code_failures_caller_idx ON phone_code_failures (caller_e164, created_at);
    CREATE INDEX phone_code_failures_called_idx ON phone_code_failures (called_e164, created_at);
    DROP INDEX answer_codes_length_idx;
    ALTER TABLE answer_codes DROP COLUMN length;
  `.execute(db);
}
