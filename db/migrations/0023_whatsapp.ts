import { type Kysely, sql } from "kysely";

// WhatsApp (decision 041): a delivery method and a channel of the send ledger and the outbox, whose
// consent is kept as texts keep theirs (sms_consent, sms_consents: per number). The outbox also keeps
// what she sends back (direction 'inbound', status 'received'). A voice note she replies with is
// one row here, keyed by its MessageSid, so a webhook Twilio delivers twice makes one answer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE storytellers DROP CONSTRAINT storytellers_delivery_method_check;
    ALTER TABLE storytellers ADD CONSTRAINT storytellers_delivery_method_check
      CHECK (delivery_method IN ('email', 'sms', 'call', 'whatsapp'));
    ALTER TABLE storytellers ADD CONSTRAINT storytellers_whatsapp_phone_check
      CHECK (delivery_method <> 'whatsapp' OR phone_e164 IS NOT NULL);

    ALTER TABLE deliveries DROP CONSTRAINT deliveries_channel_check;
    ALTER TABLE deliveries ADD CONSTRAINT deliveries_channel_check
      CHECK (channel IN ('email', 'sms', 'call', 'whatsapp'));
    ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_channel_check;
    ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_channel_check
      CHECK (channel IN ('email', 'sms', 'call', 'whatsapp'));
    ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_status_check;
    ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_status_check
      CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'received'));
    ALTER TABLE outbox_messages ADD COLUMN direction text NOT NULL DEFAULT 'outbound'
      CHECK (direction IN ('outbound', 'inbound'));
    ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_received_check
      CHECK ((direction = 'inbound') = (status = 'received'));

    CREATE TABLE whatsapp_voice_notes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      message_sid text NOT NULL UNIQUE CHECK (char_length(message_sid) BETWEEN 1 AND 64),
      media_sid text NOT NULL CHECK (char_length(media_sid) BETWEEN 1 AND 64),
      phone_e164 text NOT NULL,
      prompt_id uuid REFERENCES prompts (id) ON DELETE SET NULL,
      -- pending: to fetch; replied: her reply is queued (the answer made or refused); done: deleted at Twilio.
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'replied', 'done')),
      answer_id uuid REFERENCES answers (id) ON DELETE SET NULL,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE whatsapp_voice_notes;
    DELETE FROM deliveries WHERE channel = 'whatsapp';
    DELETE FROM outbox_messages WHERE channel = 'whatsapp' OR direction = 'inbound';
    UPDATE storytellers SET delivery_method = 'sms' WHERE delivery_method = 'whatsapp';
    ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_received_check;
    ALTER TABLE outbox_messages DROP COLUMN direction;
    ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_status_check;
    ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_status_check
      CHECK (status IN ('queued', 'sending', 'sent', 'failed'));
    ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_channel_check;
    ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_channel_check CHECK (channel IN ('email', 'sms', 'call'));
    ALTER TABLE deliveries DROP CONSTRAINT deliveries_channel_check;
    ALTER TABLE deliveries ADD CONSTRAINT deliveries_channel_check CHECK (channel IN ('email', 'sms', 'call'));
    ALTER TABLE storytellers DROP CONSTRAINT storytellers_whatsapp_phone_check;
    ALTER TABLE storytellers DROP CONSTRAINT storytellers_delivery_method_check;
    ALTER TABLE storytellers ADD CONSTRAINT storytellers_delivery_method_check
      CHECK (delivery_method IN ('email', 'sms', 'call'));
  `.execute(db);
}
