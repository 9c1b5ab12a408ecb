import { type Kysely, sql } from "kysely";

// Calling out (decision 027): "Phone call" as a delivery method and a channel of the send ledger
// and the outbox, and the record of the owner's word that the Storyteller agreed to be called (and
// of any opt-out, on the call or by text), kept like texts' consent: per number, outliving the
// Storyteller.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE storytellers DROP CONSTRAINT storytellers_delivery_method_check;
    ALTER TABLE storytellers ADD CONSTRAINT storytellers_delivery_method_check
      CHECK (delivery_method IN ('email', 'sms', 'call'));
    ALTER TABLE storytellers ADD CONSTRAINT storytellers_call_phone_check
      CHECK (delivery_method <> 'call' OR phone_e164 IS NOT NULL);
    ALTER TABLE storytellers ADD COLUMN call_consent text NOT NULL DEFAULT 'none'
      CHECK (call_consent IN ('none', 'granted', 'revoked'));

    ALTER TABLE deliveries DROP CONSTRAINT deliveries_channel_check;
    ALTER TABLE deliveries ADD CONSTRAINT deliveries_channel_check CHECK (channel IN ('email', 'sms', 'call'));
    ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_channel_check;
    ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_channel_check CHECK (channel IN ('email', 'sms', 'call'));

    -- granted: the owner confirmed the Storyteller agreed (given_by, the sentence they ticked);
    -- revoked: the Storyteller pressed 0 on a call, or texted STOP; a START by text grants again.
    -- The number's own latest word (rows not from an owner) decides whether it may be called.
    CREATE TABLE call_consents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      storyteller_id uuid REFERENCES storytellers (id) ON DELETE SET NULL,
      phone_e164 text NOT NULL,
      status text NOT NULL CHECK (status IN ('granted', 'revoked')),
      source text NOT NULL CHECK (source IN ('owner', 'call', 'text')),
      statement text NOT NULL,
      given_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX call_consents_phone_idx ON call_consents (phone_e164, created_at DESC);
    CREATE INDEX call_consents_storyteller_idx ON call_consents (storyteller_id, created_at DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS call_consents;
    DELETE FROM deliveries WHERE channel = 'call';
    DELETE FROM outbox_messages WHERE channel = 'call';
    UPDATE storytellers SET delivery_method = 'sms' WHERE delivery_method = 'call';
    ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_channel_check;
    ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_channel_check CHECK (channel IN ('email', 'sms'));
    ALTER TABLE deliveries DROP CONSTRAINT deliveries_channel_check;
    ALTER TABLE deliveries ADD CONSTRAINT deliveries_channel_check CHECK (channel IN ('email', 'sms'));
    ALTER TABLE storytellers DROP COLUMN call_consent;
    ALTER TABLE storytellers DROP CONSTRAINT storytellers_call_phone_check;
    ALTER TABLE storytellers DROP CONSTRAINT storytellers_delivery_method_check;
    ALTER TABLE storytellers ADD CONSTRAINT storytellers_delivery_method_check
      CHECK (delivery_method IN ('email', 'sms'));
  `.execute(db);
}
