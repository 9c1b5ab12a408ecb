import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Server } from "@tus/server";
import { getSessionUser } from "~/auth/session.server";
import type { AppServices } from "~/context.server";
import { acceptRecording } from "~/models/answer.server";
import { promptForRecordToken } from "~/models/capability-links.server";
import { answerablePrompt } from "~/models/my-stories.server";
import { MAX_UPLOAD_BYTES } from "~/services/audio-check.server";
import { log } from "~/services/logger.server";
import { createUploadStore } from "~/services/uploads.server";

// The HTTP side of recording uploads: tus's protocol handler, mounted by server/http.ts outside
// React Router. Where the bytes wait is app/services/uploads.server.ts (also used by the cleanup job).

export const UPLOADS_PATH = "/uploads";

type TusError = { status_code: number; body: string };
const refuse = (status_code: number, body: string): TusError => ({ status_code, body });

/**
 * The prompt a new upload answers, decided on the server: a live record link's (`token` in the
 * metadata), or, from My Stories, a prompt (`prompt`) the signed-in user may answer (the session
 * cookie comes with the upload's first request); null for anything else.
 */
async function uploadPromptId(services: AppServices, req: Request, metadata: Record<string, string | null>) {
  if (metadata.token) return (await promptForRecordToken(services, metadata.token))?.id ?? null;
  if (!metadata.prompt) return null;
  const user = await getSessionUser(req, services);
  return user ? ((await answerablePrompt(services.db, user, metadata.prompt))?.id ?? null) : null;
}

/**
 * Resumable uploads from the record page and My Stories (tus). Creating an upload needs a live
 * record link (its token in the upload's metadata) or a signed-in user's own prompt; the upload's
 * id is ours, random, and is the only handle on it afterwards. When the last byte arrives the file is checked and becomes the answer before the
 * response goes back, so the page says "Submitted successfully" only once that is done. A bad file
 * gets 422 with the reason (a translation key) and leaves nothing behind.
 *
 * Locks are per process (tus's memory locker): run one web process per database, or put a
 * shared locker here before running several.
 */
export function createUploadServer(services: AppServices) {
  const datastore = createUploadStore(services.config);

  return new Server({
    path: UPLOADS_PATH,
    datastore,
    maxSize: MAX_UPLOAD_BYTES,
    relativeLocation: true,
    namingFunction: () => randomUUID(),
    async onUploadCreate(req, upload) {
      const promptId = await uploadPromptId(services, req, upload.metadata ?? {});
      if (!promptId) throw refuse(404, "record.notFound");
      // The prompt is decided here, on the server; what the browser sends later cannot change it.
      return { metadata: { promptId, private: upload.metadata?.private === "1" ? "1" : "0" } };
    },
    async onUploadFinish(_req, upload) {
      const promptId = upload.metadata?.promptId;
      if (!promptId) throw refuse(400, "record.failed");
      const folder = path.join(tmpdir(), "heirloom-uploads");
      await mkdir(folder, { recursive: true });
      const file = path.join(folder, `${upload.id}.audio`);
      try {
        await pipeline(await datastore.read(upload.id), createWriteStream(file));
        const result = await acceptRecording(services, {
          promptId,
          file,
          isPrivate: upload.metadata?.private === "1",
          uploadId: upload.id,
        });
        if (!result.ok) throw refuse(result.problem === "gone" ? 404 : 422, `upload.${result.problem}`);
        return { status_code: 204, headers: { "Heirloom-Answer": result.answerId } };
      } finally {
        await rm(file, { force: true });
        await datastore.remove(upload.id).catch(() => {});
      }
    },
    async onResponseError(_req, error) {
      if ("status_code" in error) return error;
      log.error({ module: "uploads", err: error }, "upload failed");
      return { status_code: 500, body: "record.failed" };
    },
  });
}
