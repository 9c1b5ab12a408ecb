import { exportStream, planBytes, planExport } from "~/models/keepsake-archive.server";
import { failKeepsake, finishKeepsake, keepsakeForJob, setKeepsakeProgress } from "~/models/keepsake.server";
import type { JobTask } from "~/services/jobs.server";
import { storageKeys } from "~/services/storage-keys";
import type { JobDeps } from "./task-list";

/** How often, at most, progress is written while bytes stream (the page reads it on reload). */
const PROGRESS_EVERY_MS = 500;

/**
 * Builds a large export (decision 023): the same zip as a direct download, streamed from storage
 * into storage (never whole in memory), with progress counted in bytes. Access is decided again
 * now, for the user who asked. Ready: a notification and an email with the 7-day link.
 */
export const keepsakeExport =
  (deps: Pick<JobDeps, "db" | "config" | "storage">): JobTask<"keepsake__export"> =>
  async ({ keepsakeId }) => {
    const { db, config, storage } = deps;
    const keepsake = await keepsakeForJob(db, keepsakeId);
    if (!keepsake || keepsake.kind !== "export" || keepsake.status === "ready") return;
    try {
      const plan = await planExport(
        { db, storage, config },
        { id: keepsake.user_id, language: keepsake.language, time_zone: keepsake.time_zone },
        keepsake.storyteller_id
          ? { kind: "storyteller", storytellerId: keepsake.storyteller_id }
          : { kind: "everything" },
      );
      if (!plan) {
        await failKeepsake(db, keepsakeId, "not-found");
        return;
      }
      await setKeepsakeProgress(db, keepsakeId, 0);
      const total = Math.max(1, planBytes(plan));
      let written = Promise.resolve();
      let lastWrite = 0;
      const key = storageKeys.keepsakeFile(keepsakeId, "zip");
      const { size } = await storage.putStream(
        key,
        exportStream(storage, plan, (done) => {
          const now = Date.now();
          if (now - lastWrite < PROGRESS_EVERY_MS) return;
          lastWrite = now;
          written = written.then(() => setKeepsakeProgress(db, keepsakeId, (99 * done) / total));
        }),
        "application/zip",
      );
      await written;
      await finishKeepsake(db, config, keepsakeId, { key, size }, new Date(), plan.storytellerIds);
    } catch (error) {
      await failKeepsake(db, keepsakeId, "failed");
      throw error;
    }
  };
