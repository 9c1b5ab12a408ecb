import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { ERRORS, type Locker, MemoryLocker, Server, type Upload } from "@tus/server";
import { getSessionUser } from "~/auth/session.server";
import type { AppServices } from "~/context.server";
import { acceptRecording, answerIdForUpload } from "~/models/answer.server";
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
 * id is ours, random, and is the only handle on it afterwards. When the last byte arrives the file
 * is checked and becomes the answer before the response goes back, so the page says "Submitted
 * successfully" only once that is done. A bad file gets 422 with the reason (a translation key) and
 * leaves nothing behind.
 *
 * `locker` keeps two requests from writing one upload at once. Several web processes need one
 * they all share (server/upload-locker.ts, PostgreSQL advisory locks; decision 024); tus's default,
 * in memory, holds within one process only.
 */
export function createUploadServer(services: AppServices, options: { locker?: Locker } = {}) {
  const datastore = createUploadStore(services.config);
  const locker = options.locker ?? new MemoryLocker();

  /**
   * The last byte is in: the file becomes the answer, then the upload is removed. One finish at a
   * time per upload, whichever process: the PATCH that brought the last byte, or a HEAD asking
   * after an upload whose process died while finishing it. Finishing twice is one answer.
   */
  async function finish(upload: Upload) {
    const promptId = upload.metadata?.promptId;
    if (!promptId) throw refuse(400, "record.failed");
    const lock = locker.newLock(`finish:${upload.id}`);
    await lock.lock(new AbortController().signal, () => {});
    const folder = path.join(tmpdir(), "heirloom-uploads");
    const file = path.join(folder, `${upload.id}.${randomUUID()}.audio`);
    try {
      // Another request finished it while this one waited for the lock: the same answer.
      const current = await datastore.getUpload(upload.id).catch(() => null);
      if (!current) {
        const answerId = await answerIdForUpload(services.db, upload.id);
        if (answerId) return answerId;
        throw refuse(404, "record.notFound");
      }
      await mkdir(folder, { recursive: true });
      await pipeline(await datastore.read(upload.id), createWriteStream(file));
      const result = await acceptRecording(services, {
        promptId,
        file,
        isPrivate: upload.metadata?.private === "1",
        uploadId: upload.id,
      });
      if (!result.ok) throw refuse(result.problem === "gone" ? 404 : 422, `upload.${result.problem}`);
      return result.answerId;
    } finally {
      await rm(file, { force: true });
      await datastore.remove(upload.id).catch(() => {});
      await lock.unlock();
    }
  }

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore,
    locker,
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
      const answerId = await finish(upload);
      return { status_code: 204, headers: { "Heirloom-Answer": answerId } };
    },
    async onResponseError(_req, error) {
      if ("status_code" in error) {
        // Another request kept the upload: the client tries again (tus-js-client retries on 423).
        if (error === ERRORS.ERR_LOCK_TIMEOUT) return { status_code: 423, body: "record.failed" };
        return error;
      }
      log.error({ module: "uploads", err: error }, "upload failed");
      return { status_code: 500, body: "record.failed" };
    },
  });

  /**
   * A HEAD for an upload that has every byte but is still here: its process died while finishing
   * it (we remove uploads once finished). Finish it now, so the page, which stops at "all bytes
   * sent", never leaves with a recording that did not become an answer.
   */
  async function finishLeftover(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const id = new URL(req.url ?? "/", "http://uploads").pathname.split("/").pop() ?? "";
    if (req.method !== "HEAD" || !UPLOAD_ID.test(id)) return false;
    const upload = await datastore.getUpload(id).catch(() => null);
    if (!upload || upload.size === undefined || upload.offset !== upload.size) return false;
    try {
      const answerId = await finish(upload);
      res.writeHead(200, {
        "Tus-Resumable": "1.0.0",
        "Upload-Offset": String(upload.size),
        "Upload-Length": String(upload.size),
        "Cache-Control": "no-store",
        "Heirloom-Answer": answerId,
      });
    } catch (error) {
      if (!(error && typeof error === "object" && "status_code" in error)) throw error;
      const { status_code, body } = error as TusError;
      res.writeHead(status_code, { "Tus-Resumable": "1.0.0", "Content-Type": "text/plain" });
      res.end(body);
      return true;
    }
    res.end();
    return true;
  }

  return {
    async handle(req: IncomingMessage, res: ServerResponse) {
      if (await finishLeftover(req, res)) return;
      await tus.handle(req, res);
    },
  };
}

const UPLOAD_ID = /^[0-9a-f-]{36}$/;
