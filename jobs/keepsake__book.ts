import { bookOptionsSchema, buildBook } from "~/models/keepsake-book.server";
import { failKeepsake, finishKeepsake, keepsakeForJob, setKeepsakeProgress } from "~/models/keepsake.server";
import type { JobTask } from "~/services/jobs.server";
import { ChromiumMissingError } from "~/services/pdf.server";
import { storageKeys } from "~/services/storage-keys";
import type { JobDeps } from "./task-list";

/**
 * Makes a keepsake book (decision 023): the PDF printed by the system Chromium, put in storage.
 * Without Chromium the keepsake says so ("no-chromium") and nothing else breaks. Ready: a
 * notification and an email with the 7-day link.
 */
export const keepsakeBook =
  (deps: Pick<JobDeps, "db" | "config" | "storage">): JobTask<"keepsake__book"> =>
  async ({ keepsakeId }) => {
    const { db, config, storage } = deps;
    const keepsake = await keepsakeForJob(db, keepsakeId);
    if (!keepsake || keepsake.kind !== "book" || keepsake.status === "ready") return;
    const options = bookOptionsSchema.safeParse(keepsake.options);
    if (!options.success || !keepsake.storyteller_id) {
      await failKeepsake(db, keepsakeId, "failed");
      return;
    }
    try {
      await setKeepsakeProgress(db, keepsakeId, 0);
      const result = await buildBook(
        { db, config, storage },
        {
          userId: keepsake.user_id,
          storytellerId: keepsake.storyteller_id,
          options: options.data,
        },
        (percent) => setKeepsakeProgress(db, keepsakeId, percent),
      );
      if (result.kind === "not-found") {
        await failKeepsake(db, keepsakeId, "not-found");
        return;
      }
      const key = storageKeys.keepsakeFile(keepsakeId, "pdf");
      await storage.put(key, result.pdf, "application/pdf");
      await finishKeepsake(db, config, keepsakeId, { key, size: result.pdf.byteLength });
    } catch (error) {
      if (error instanceof ChromiumMissingError) {
        await failKeepsake(db, keepsakeId, "no-chromium");
        return;
      }
      await failKeepsake(db, keepsakeId, "failed");
      throw error;
    }
  };
