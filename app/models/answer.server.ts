import { createReadStream } from "node:fs";
import type { Config } from "~/config.server";
import type { AudioProblem } from "~/services/audio-check.server";
import { checkAudioFile } from "~/services/audio-check.server";
import { enqueueJob } from "~/services/jobs.server";
import { log } from "~/services/logger.server";
import { storageKeys } from "~/services/storage-keys";
import type { StorageService } from "~/services/storage.server";
import { type Db, type DbOrTx, inTransaction } from "../../db/client";
import { recordLinkAddress } from "./access.server";
import { releaseAnswerCode } from "./answer-code.server";
import { notifyStorytellerEvent } from "./notification.server";

export type AnswerServices = { db: Db; config: Config; storage: StorageService };

export type AcceptResult = { ok: true; answerId: string } | { ok: false; problem: AudioProblem | "gone" };

/**
 * Takes a finished upload (a file on this machine): checks it, stores it under a key of our
 * choosing, and records the answer, all or nothing. One answer per prompt: a second upload is
 * ignored (the first stands), unless the owner asked for a new recording, in which case the new
 * one replaces the old only once it is safely stored. Finishing the same upload twice is one answer.
 */
export async function acceptRecording(
  services: AnswerServices,
  input: {
    promptId: string;
    file: string;
    isPrivate: boolean;
    uploadId?: string;
    viaPhone?: boolean;
    /** The number a call or WhatsApp voice note came from; absent for the page (record link, My Stories). */
    fromPhone?: string;
  },
): Promise<AcceptResult> {
  const { db, storage } = services;
  if (input.uploadId) {
    const done = await answerIdForUpload(db, input.uploadId);
    if (done) return { ok: true, answerId: done };
  }
  const check = await checkAudioFile(input.file);
  if (!check.ok) return { ok: false, problem: check.problem };

  const key = storageKeys.answerOriginal(input.promptId, check.extension);
  await storage.putStream(key, createReadStream(input.file), check.contentType);
  let outcome: { result: AcceptResult; storedOurs: boolean; replacedKeys: string[] };
  try {
    outcome = await inTransaction(db, async (tx) => {
      const prompt = await tx
        .selectFrom("prompts")
        .innerJoin("storytellers as s", "s.id", "prompts.storyteller_id")
        .innerJoin("users as owner", "owner.id", "s.owner_id")
        .select((eb) => [
          "prompts.id",
          "prompts.storyteller_id",
          "prompts.sent_at",
          "prompts.rerecord_requested_at",
          // Whose own answer it is (decision 063): the address its record link went to, or for the
          // user's own stories their account; never the Storyteller row's editable email.
          eb.fn
            .coalesce(
              recordLinkAddress(tx, input.promptId),
              eb
                .case()
                .when("s.is_self", "=", true)
                .then(eb.fn<string>("lower", ["owner.email"]))
                .end(),
            )
            .as("link_address"),
        ])
        .where("prompts.id", "=", input.promptId)
        .forUpdate("prompts")
        .executeTakeFirst();
      if (!prompt?.sent_at)
        return { result: { ok: false, problem: "gone" } as const, storedOurs: false, replacedKeys: [] };
      const existing = await tx
        .selectFrom("answers")
        .select(["id", "storage_key", "playable_storage_key"])
        .where("prompt_id", "=", prompt.id)
        .executeTakeFirst();
      if (existing && !prompt.rerecord_requested_at)
        return { result: { ok: true, answerId: existing.id } as const, storedOurs: false, replacedKeys: [] };
      if (existing) await tx.deleteFrom("answers").where("id", "=", existing.id).execute();
      const answer = await tx
        .insertInto("answers")
        .values({
          prompt_id: prompt.id,
          storyteller_id: prompt.storyteller_id,
          is_private: input.isPrivate,
          storage_key: key,
          content_type: check.contentType,
          byte_size: check.byteSize,
          duration_ms: check.durationMs,
          upload_id: input.uploadId ?? null,
          via_phone: input.viaPhone ?? false,
          // By phone or WhatsApp it came from a number, which no account holds yet.
          recorded_for_email: input.fromPhone ? null : prompt.link_address,
          recorded_for_phone: input.fromPhone ?? null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await tx
        .updateTable("prompts")
        .set({ skipped_at: null, rerecord_requested_at: null, updated_at: new Date() })
        .where("id", "=", prompt.id)
        .execute();
      // Answered: its code stops working and frees its place (decision 022).
      await releaseAnswerCode(tx, prompt.id);
      await notifyStorytellerEvent(tx, services.config, {
        type: "uploaded",
        storytellerId: prompt.storyteller_id,
        promptId: prompt.id,
      });
      await enqueueJob(tx, "answer__transcode", { answerId: answer.id });
      await enqueueJob(tx, "answer__transcribe", { answerId: answer.id });
      const replacedKeys = existing
        ? [existing.storage_key, existing.playable_storage_key].filter((k): k is string => k !== null)
        : [];
      return { result: { ok: true, answerId: answer.id } as const, storedOurs: true, replacedKeys };
    });
  } catch (error) {
    await storage.delete(key).catch(() => {});
    throw error;
  }
  // Only after the commit: objects nobody points at any more.
  for (const unused of [...(outcome.storedOurs ? [] : [key]), ...outcome.replacedKeys])
    await storage.delete(unused).catch(() => {});
  return outcome.result;
}

/** The answer an upload became, if it has been finished (by any process). */
export async function answerIdForUpload(db: DbOrTx, uploadId: string): Promise<string | null> {
  const row = await db.selectFrom("answers").select("id").where("upload_id", "=", uploadId).executeTakeFirst();
  return row?.id ?? null;
}

/** The Storyteller opened the question for the first time: the asker hears about it once. */
export async function markOpened(services: AnswerServices, promptId: string) {
  await inTransaction(services.db, async (tx) => {
    const opened = await tx
      .updateTable("prompts")
      .set({ opened_at: new Date() })
      .where("id", "=", promptId)
      .where("opened_at", "is", null)
      .returning("storyteller_id")
      .executeTakeFirst();
    if (opened)
      await notifyStorytellerEvent(tx, services.config, {
        type: "listened",
        storytellerId: opened.storyteller_id,
        promptId,
      });
  });
}

/** "Skip this question": only while there is no answer; the asker is told. */
export async function skipPrompt(services: AnswerServices, promptId: string): Promise<boolean> {
  return inTransaction(services.db, async (tx) => {
    const answered = await tx.selectFrom("answers").select("id").where("prompt_id", "=", promptId).executeTakeFirst();
    if (answered) return false;
    const skipped = await tx
      .updateTable("prompts")
      .set({ skipped_at: new Date(), updated_at: new Date() })
      .where("id", "=", promptId)
      .where("skipped_at", "is", null)
      .returning("storyteller_id")
      .executeTakeFirst();
    if (skipped)
      await notifyStorytellerEvent(tx, services.config, {
        type: "skipped",
        storytellerId: skipped.storyteller_id,
        promptId,
      });
    return true;
  });
}

/**
 * Deletes rows whose answers cascade with them (a Storyteller, an account), then the answers' stored
 * audio, which no row points at any more. `remove` runs in a transaction with the keys' query.
 */
export async function deleteWithAnswerFiles(
  services: Pick<AnswerServices, "db" | "storage">,
  answersOf: { storytellerId: string } | { ownerId: string },
  remove: (tx: DbOrTx) => Promise<unknown>,
) {
  const keys = await inTransaction(services.db, async (tx) => {
    let query = tx
      .selectFrom("answers")
      .innerJoin("storytellers", "storytellers.id", "answers.storyteller_id")
      .select(["answers.storage_key", "answers.playable_storage_key"]);
    query =
      "ownerId" in answersOf
        ? query.where("storytellers.owner_id", "=", answersOf.ownerId)
        : query.where("storytellers.id", "=", answersOf.storytellerId);
    const rows = await query.forUpdate("answers").execute();
    await remove(tx);
    return rows.flatMap((r) => [r.storage_key, r.playable_storage_key].filter((k): k is string => k !== null));
  });
  for (const key of keys)
    await services.storage
      .delete(key)
      .catch((error) => log.warn({ module: "answers", err: error, key }, "could not delete a stored file"));
}
