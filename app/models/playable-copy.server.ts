import type { NotNull } from "kysely";
import type { DbOrTx } from "../../db/client";

/** What transcoding needs of an answer: its recording, and whether a playable copy exists. */
export async function answerRecording(db: DbOrTx, answerId: string) {
  return (
    db
      .selectFrom("answers")
      .select(["storage_key", "content_type", "playable_storage_key"])
      .where("id", "=", answerId)
      // A written answer has no recording to copy.
      .where("storage_key", "is not", null)
      .$narrowType<{ storage_key: NotNull; content_type: NotNull }>()
      .executeTakeFirst()
  );
}

/**
 * Points the answer at its playable copy, only if it is still the recording the copy was made from
 * and has none yet; false when it was deleted or re-recorded meanwhile.
 */
export async function setPlayableCopy(
  db: DbOrTx,
  answer: { id: string; storageKey: string },
  copy: { key: string; contentType: string },
): Promise<boolean> {
  const updated = await db
    .updateTable("answers")
    .set({ playable_storage_key: copy.key, playable_content_type: copy.contentType })
    .where("id", "=", answer.id)
    .where("storage_key", "=", answer.storageKey)
    .where("playable_storage_key", "is", null)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** The playable copy an answer points at now (null when it has none or is gone). */
export async function currentPlayableKey(db: DbOrTx, answerId: string): Promise<string | null> {
  const row = await db
    .selectFrom("answers")
    .select("playable_storage_key")
    .where("id", "=", answerId)
    .executeTakeFirst();
  return row?.playable_storage_key ?? null;
}
