import { type Kysely, sql } from "kysely";

// Keeping it forever (issue 13, decision 023): exports and keepsake books built in the background,
// and the permanent listen links a book's QR codes open.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One export (zip) or book (PDF) a user asked for. storyteller_id null: "everything I can hear".
    -- The built file lives in storage under storage_key until expires_at (7 days after it is ready).
    CREATE TABLE keepsakes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      storyteller_id uuid REFERENCES storytellers (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('export', 'book')),
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'building', 'ready', 'failed')),
      progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
      options jsonb NOT NULL DEFAULT '{}',
      storage_key text,
      byte_size bigint,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      ready_at timestamptz,
      expires_at timestamptz
    );
    CREATE INDEX keepsakes_user_idx ON keepsakes (user_id, created_at DESC);
    CREATE INDEX keepsakes_expires_idx ON keepsakes (expires_at) WHERE storage_key IS NOT NULL;

    -- A permanent link to one answer's voice (a book's QR code), revocable like a share link.
    CREATE TABLE listen_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      answer_id uuid NOT NULL REFERENCES answers (id) ON DELETE CASCADE,
      created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    );
    CREATE INDEX listen_links_answer_idx ON listen_links (answer_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS listen_links, keepsakes;`.execute(db);
}
