import { type Kysely, sql } from "kysely";

// A sign-in in progress (remix-auth-totp's state: the email and the encrypted code secret), kept
// server-side so the code can be typed on another device. The browser holds only the row's id.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE auth_flows (
      id text PRIMARY KEY,
      email text,
      data jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX auth_flows_email_idx ON auth_flows (email, created_at DESC) WHERE email IS NOT NULL;
    CREATE INDEX auth_flows_expires_idx ON auth_flows (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS auth_flows`.execute(db);
}
