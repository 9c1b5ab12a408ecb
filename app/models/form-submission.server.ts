import { randomUUID } from "node:crypto";
import { isUuid } from "~/utils/ids";
import { SUBMISSION_FIELD } from "~/utils/submission-field";
import type { DbOrTx } from "../../db/client";
import { inTransaction } from "../../db/client";

/** A fresh id for a creating form, drawn by its loader. */
export const newSubmissionId = () => randomUUID();

/** The post's submission id, or null when it has none (a hand-made post: created as before, once per post). */
export function submissionIdOf(formData: FormData): string | null {
  const value = formData.get(SUBMISSION_FIELD);
  return typeof value === "string" && isUuid(value) ? value.toLowerCase() : null;
}

export type Once<T> = { repeat: false; result: T } | { repeat: true; location: string };

/**
 * Runs a creating form's work once per submission id. The id is claimed in the work's own
 * transaction: a second post of it waits on the first's claim (the primary key) and, once that
 * commits, is told where the first went (`location` of the result) instead of creating again. A
 * result with no location (refused) gives the id back, so the corrected form can post it again.
 */
export async function oncePerSubmission<T>(
  db: DbOrTx,
  userId: string,
  submissionId: string | null,
  work: (tx: DbOrTx) => Promise<T>,
  locationOf: (result: T) => string | null,
): Promise<Once<T>> {
  if (!submissionId) return { repeat: false, result: await inTransaction(db, work) };
  return inTransaction(db, async (tx): Promise<Once<T>> => {
    const claimed = await tx
      .insertInto("form_submissions")
      .values({ user_id: userId, id: submissionId })
      .onConflict((oc) => oc.columns(["user_id", "id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!claimed) {
      const first = await tx
        .selectFrom("form_submissions")
        .select("location")
        .where("user_id", "=", userId)
        .where("id", "=", submissionId)
        .executeTakeFirst();
      if (first?.location) return { repeat: true, location: first.location };
    }
    const result = await work(tx);
    const location = locationOf(result);
    if (location)
      await tx
        .updateTable("form_submissions")
        .set({ location })
        .where("user_id", "=", userId)
        .where("id", "=", submissionId)
        .execute();
    else await tx.deleteFrom("form_submissions").where("user_id", "=", userId).where("id", "=", submissionId).execute();
    return { repeat: false, result };
  });
}
