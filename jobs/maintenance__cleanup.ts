import { deleteExpiredRows } from "~/models/expired-rows.server";
import { expiredKeepsakeFiles, forgetKeepsakeFile } from "~/models/keepsake.server";
import { sweepPhoneCalls } from "~/models/phone-upkeep.server";
import type { JobTask } from "~/services/jobs.server";
import { createUploadStore } from "~/services/uploads.server";
import type { JobDeps } from "./task-list";

/**
 * Hourly (jobs/crontab.ts): removes what has expired and is never read again: finished or abandoned
 * sign-ins, sessions past their idle or absolute limit, unconfirmed email changes, old rate-limit
 * counters, uploads nobody finished within a week, answering by phone's leftovers (sweepPhoneCalls),
 * and exports and books past their 7 days (the file goes; the row stays, so the page can say "expired").
 */
export const maintenanceCleanup =
  ({
    db,
    config,
    storage,
  }: Pick<JobDeps, "db" | "config"> & Partial<Pick<JobDeps, "storage">>): JobTask<"maintenance__cleanup"> =>
  async () => {
    const now = new Date();
    await deleteExpiredRows(db, now);
    await createUploadStore(config).deleteExpired();
    if (storage)
      for (const keepsake of await expiredKeepsakeFiles(db, now)) {
        await storage.delete(keepsake.storage_key!);
        await forgetKeepsakeFile(db, keepsake.id);
      }
    await sweepPhoneCalls(db, now);
  };
