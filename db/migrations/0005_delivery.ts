import { type Kysely, sql } from "kysely";

// What the scheduler and the send job need beyond the core tables.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Set when the owner was told the queue is empty; cleared by the next send, so they hear once.
    ALTER TABLE schedules ADD COLUMN empty_queue_notified_at timestamptz;

    -- A delivery's message: the outbox row that carries it to the provider (and reconciles a crash).
    ALTER TABLE deliveries ADD COLUMN outbox_message_id uuid REFERENCES outbox_messages (id) ON DELETE SET NULL;
    CREATE UNIQUE INDEX deliveries_outbox_message_key ON deliveries (outbox_message_id) WHERE outbox_message_id IS NOT NULL;

    -- When the provider was called: reconciliation looks for the message from this moment on.
    ALTER TABLE outbox_messages ADD COLUMN claimed_at timestamptz;
    CREATE INDEX outbox_messages_provider_id_idx ON outbox_messages (provider_message_id) WHERE provider_message_id IS NOT NULL;

    -- A number's STOP outlives the Storyteller it came from (and may come from a number nobody uses):
    -- consent records stay when a Storyteller is deleted.
    ALTER TABLE sms_consents ALTER COLUMN storyteller_id DROP NOT NULL;
    ALTER TABLE sms_consents DROP CONSTRAINT sms_consents_storyteller_id_fkey;
    ALTER TABLE sms_consents ADD CONSTRAINT sms_consents_storyteller_id_fkey FOREIGN KEY (storyteller_id) REFERENCES storytellers (id) ON DELETE SET NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DELETE FROM sms_consents WHERE storyteller_id IS NULL;
    ALTER TABLE sms_consents DROP CONSTRAINT sms_consents_storyteller_id_fkey;
    ALTER TABLE sms_consents ADD CONSTRAINT sms_consents_storyteller_id_fkey FOREIGN KEY (storyteller_id) REFERENCES storytellers (id) ON DELETE CASCADE;
    ALTER TABLE sms_consents ALTER COLUMN storyteller_id SET NOT NULL;
    ALTER TABLE outbox_messages DROP COLUMN IF EXISTS claimed_at;
    DROP INDEX IF EXISTS outbox_messages_provider_id_idx;
    ALTER TABLE deliveries DROP COLUMN IF EXISTS outbox_message_id;
    ALTER TABLE schedules DROP COLUMN IF EXISTS empty_queue_notified_at;
  `.execute(db);
}
