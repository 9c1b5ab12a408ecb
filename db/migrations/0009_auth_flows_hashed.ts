import { type Kysely, sql } from "kysely";

// A sign-in in progress, now our own rows rather than remix-auth-totp's session: the browser's id is
// stored only hashed (like sessions), the code only as an HMAC (app/auth/codes.server.ts), and one
// row per address, so a new code voids the earlier one even when two requests race. Rows live 15
// minutes, so the old ones are simply dropped; pending email changes go too, because their codes
// were hashed with a key derived the old way and could no longer be checked.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE auth_flows;
    CREATE TABLE auth_flows (
      id_hash text PRIMARY KEY,
      email text NOT NULL UNIQUE CHECK (email = lower(email)),
      code_hash text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX auth_flows_expires_idx ON auth_flows (expires_at);
    DELETE FROM email_changes;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE auth_flows;
    CREATE TABLE auth_flows (
      id text PRIMARY KEY,
      email text,
      data jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX auth_flows_email_idx ON auth_flows (email, created_at DESC) WHERE email IS NOT NULL;
    CREATE INDEX auth_flows_expires_idx ON auth_flows (expires_at);
    DELETE FROM email_changes;
  `.execute(db);
}
