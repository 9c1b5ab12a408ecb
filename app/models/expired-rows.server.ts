import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";

const IDLE_SESSION_DAYS = 14;
/**
 * Twilio retries a webhook within hours; a month of MessageSids is ample to answer each text or voice
 * note once (a voice note's media is deleted at Twilio once fetched, and gone there after a month anyway).
 */
const INBOUND_MESSAGE_DAYS = 30;
/** A creating form's claimed id (oncePerSubmission): a page a day old is drawn again before it is posted twice. */
const FORM_SUBMISSION_DAYS = 1;

/**
 * Deletes rows that have expired and are never read again: finished or abandoned sign-ins,
 * sessions past their idle or absolute limit, unconfirmed email changes, old rate-limit counters,
 * inbound texts' MessageSids and WhatsApp voice notes (her number, the media's ids) past a month,
 * creating forms' submission ids past a day.
 */
export async function deleteExpiredRows(db: DbOrTx, now: Date) {
  await db.deleteFrom("auth_flows").where("expires_at", "<", now).execute();
  await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<", now),
        eb("last_seen_at", "<", new Date(now.getTime() - IDLE_SESSION_DAYS * 86_400_000)),
      ]),
    )
    .execute();
  await db.deleteFrom("email_changes").where("expires_at", "<", now).execute();
  await db
    .deleteFrom("rate_limits")
    .where("expire", "<", sql<string>`${now.getTime()}::bigint`)
    .execute();
  const aMonthAgo = new Date(now.getTime() - INBOUND_MESSAGE_DAYS * 86_400_000);
  await db.deleteFrom("inbound_messages").where("received_at", "<", aMonthAgo).execute();
  await db.deleteFrom("whatsapp_voice_notes").where("created_at", "<", aMonthAgo).execute();
  await db
    .deleteFrom("form_submissions")
    .where("created_at", "<", new Date(now.getTime() - FORM_SUBMISSION_DAYS * 86_400_000))
    .execute();
}
