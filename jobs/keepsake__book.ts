import { bookOptionsSchema, buildBook, type PrintReadyBook } from "~/models/keepsake-book.server";
import { failKeepsake, finishKeepsake, keepsakeForJob, setKeepsakeProgress } from "~/models/keepsake.server";
import type { JobTask } from "~/services/jobs.server";
import { ChromiumMissingError } from "~/services/pdf.server";
import { storageKeys } from "~/services/storage-keys";
import { zipStream } from "~/services/zip.server";
import type { JobDeps } from "./task-list";

async function printReadyZip(files: PrintReadyBook) {
  const lastModified = new Date();
  const entry = (name: string, bytes: Uint8Array) => ({
    name,
    lastModified,
    size: bytes.byteLength,
    open: async () => bytes,
  });
  const zip = zipStream([entry("interior.pdf", files.interior), entry("cover.pdf", files.cover)]);
  return new Uint8Array(await new Response(zip).arrayBuffer());
}

/**
 * Makes a keepsake book (decision 023): the PDF printed by the system Chromium, put in storage;
 * or its print-ready files (decision 081), checked, in one zip.
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
      // Print-ready files go together in one zip: the interior and the cover a printer asks for.
      const file =
        result.kind === "pdf"
          ? { bytes: result.pdf, extension: "pdf" as const, type: "application/pdf" }
          : { bytes: await printReadyZip(result.files), extension: "zip" as const, type: "application/zip" };
      const key = storageKeys.keepsakeFile(keepsakeId, file.extension);
      await storage.put(key, file.bytes, file.type);
      await finishKeepsake(db, config, keepsakeId, { key, size: file.bytes.byteLength });
    } catch (error) {
      if (error instanceof ChromiumMissingError) {
        await failKeepsake(db, keepsakeId, "no-chromium");
        return;
      }
      await failKeepsake(db, keepsakeId, "failed");
      throw error;
    }
  };
