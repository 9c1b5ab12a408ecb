import { type Kysely, sql } from "kysely";

// Whose own answer it is, from where it came (decision 063): by the page, the address its record
// link was sent to (the prompt's own email send), never the Storyteller row's email at the time it
// arrived; by phone or WhatsApp, the number it came from, which no account holds yet. Answers kept
// before this are put right from the ledger where it knows the address; the rest keep theirs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers ADD COLUMN recorded_for_phone text;
    UPDATE answers a SET recorded_for_phone = c.caller_e164
      FROM phone_recordings r JOIN phone_calls c ON c.call_sid = r.call_sid WHERE r.answer_id = a.id;
    UPDATE answers a SET recorded_for_phone = n.phone_e164 FROM whatsapp_voice_notes n WHERE n.answer_id = a.id;
    UPDATE answers SET recorded_for_email = NULL
      WHERE recorded_for_email IS NOT NULL AND (via_phone OR upload_id LIKE 'whatsapp:%');
    UPDATE answers a SET recorded_for_email = lower(m.to_address)
      FROM deliveries d JOIN outbox_messages m ON m.id = d.outbox_message_id
      WHERE d.prompt_id = a.prompt_id AND d.channel = 'email' AND d.purpose = 'prompt'
        AND NOT a.via_phone AND coalesce(a.upload_id, '') NOT LIKE 'whatsapp:%'
        AND a.recorded_for_email IS DISTINCT FROM lower(m.to_address);
  `.execute(db);
}

// The addresses put right are not put back wrong.
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE answers DROP COLUMN IF EXISTS recorded_for_phone`.execute(db);
}
