import { enqueueJob } from "~/services/jobs.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import { forgetOldWrongCodes } from "./phone-code-limits.server";

// Kept apart from the call script and the recording job (which pull in Twilio's SDK and the audio
// checks), so the hourly cleanup's imports stay light.

/** Hands waiting recordings to the recording job: "kept" ones become the answer, "discarded" ones are only deleted. */
export async function decidePhoneRecordings(
  db: DbOrTx,
  where: { callSid: string } | { id: string },
  status: "kept" | "discarded",
) {
  await inTransaction(db, async (tx) => {
    let query = tx
      .updateTable("phone_recordings")
      .set({ status, updated_at: new Date() })
      .where("status", "=", "pending");
    query = "id" in where ? query.where("id", "=", where.id) : query.where("call_sid", "=", where.callSid);
    const rows = await query.returning("id").execute();
    for (const row of rows) await enqueueJob(tx, "phone__recording", { recordingId: row.id });
  });
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Hourly upkeep (maintenance__cleanup): a recording still waiting for a key an hour on belongs to a
 * call that ended without Twilio's status callback reaching us, so it is kept, as a hang-up would;
 * wrong codes older than a day and finished calls older than 30 days are forgotten.
 */
export async function sweepPhoneCalls(db: DbOrTx, now = new Date()) {
  const stale = await db
    .selectFrom("phone_recordings")
    .select("call_sid")
    .distinct()
    .where("status", "=", "pending")
    .where("created_at", "<", new Date(now.getTime() - HOUR_MS))
    .execute();
  for (const { call_sid } of stale) await decidePhoneRecordings(db, { callSid: call_sid }, "kept");
  await forgetOldWrongCodes(db, now);
  await db
    .deleteFrom("phone_calls")
    .where("created_at", "<", new Date(now.getTime() - 30 * 24 * HOUR_MS))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("phone_recordings as r")
            .select("r.id")
            .whereRef("r.call_sid", "=", "phone_calls.call_sid")
            .where("r.status", "not in", ["done"]),
        ),
      ),
    )
    .execute();
}
