import { sql } from "kysely";
import type { DbOrTx } from "../../db/client";

const IDLE_SESSION_DAYS = 14;
/** Twilio retries a webhook within hours; a month of MessageSids is ample to answer each text once. */
const INBOUND_MESSAGE_DAYS = 30;

/**
 * Deletes rows that have expired and are never read again: finished or abandoned sign-ins,
 * sessions past their idle or absolute limit, unconfirmed email changes, old rate-limit counters,
 * inbound texts' MessageSids past a month.
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
  await db
    .deleteFrom("inbound_messages")
    .where("received_at", "<", new Date(now.getTime() - INBOUND_MESSAGE_DAYS * 86_400_000))
    .execute();
}
