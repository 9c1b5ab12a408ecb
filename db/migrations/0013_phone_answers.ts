import { type Kysely, sql } from "kysely";

// Answering by phone (decision 022): per-prompt answer codes, the calls in progress, wrong codes
// (for the lock-out), the recordings Twilio holds until we have stored them, and where an answer came from.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers ADD COLUMN via_phone boolean NOT NULL DEFAULT false;

    -- The code is derived from the prompt id, the salt and a key (so it can be shown again); only
    -- its HMAC is looked up. Unique: no two prompts ever share a code that still works.
    CREATE TABLE answer_codes (
      prompt_id uuid PRIMARY KEY REFERENCES prompts(id) ON DELETE CASCADE,
      salt integer NOT NULL,
      code_hmac text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE phone_calls (
      call_sid text PRIMARY KEY,
      direction text NOT NULL CHECK (direction IN ('inbound', 'outbound')),
      caller_e164 text NOT NULL,
      called_e164 text NOT NULL,
      storyteller_id uuid REFERENCES storytellers(id) ON DELETE SET NULL,
      prompt_id uuid REFERENCES prompts(id) ON DELETE SET NULL,
      language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi')),
      silent_tries integer NOT NULL DEFAULT 0,
      ended_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX phone_calls_created_idx ON phone_calls (created_at);

    CREATE TABLE phone_code_failures (
      id bigserial PRIMARY KEY,
      caller_e164 text NOT NULL,
      called_e164 text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX phone_code_failures_caller_idx ON phone_code_failures (caller_e164, created_at);
    CREATE INDEX phone_code_failures_called_idx ON phone_code_failures (called_e164, created_at);

    -- pending: recorded, the caller has not said yet; kept: to be fetched into an answer; discarded:
    -- recorded again; stored: the answer is in; done: deleted at Twilio; rejected: failed the checks.
    CREATE TABLE phone_recordings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      recording_sid text NOT NULL UNIQUE,
      call_sid text NOT NULL REFERENCES phone_calls(call_sid) ON DELETE CASCADE,
      prompt_id uuid REFERENCES prompts(id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'kept', 'discarded', 'stored', 'done', 'rejected')),
      duration_seconds integer NOT NULL,
      answer_id uuid REFERENCES answers(id) ON DELETE SET NULL,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX phone_recordings_call_idx ON phone_recordings (call_sid);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS phone_recordings;
    DROP TABLE IF EXISTS phone_code_failures;
    DROP TABLE IF EXISTS phone_calls;
    DROP TABLE IF EXISTS answer_codes;
    ALTER TABLE answers DROP COLUMN IF EXISTS via_phone;
  `.execute(db);
}
