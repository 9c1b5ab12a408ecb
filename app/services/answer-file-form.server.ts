import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MAX_UPLOAD_BYTES } from "~/services/audio-check.server";
import { readMultipart } from "~/utils/request-body.server";

/** What the page says after a file form post: `error` is a translation key (record namespace). */
export type FileFormOutcome = {
  ok: boolean;
  error?: string;
  status: number;
  /** Answered before the body was read to its end: close the connection so nothing reuses it mid-body. */
  close: boolean;
};

/** Turns the stored file into the answer (acceptRecording, for the page's prompt). */
type Accept = (input: { file: string; isPrivate: boolean }) => Promise<{ ok: true } | { ok: false; problem: string }>;

/**
 * An answer as a plain multipart post (without JavaScript), for the record page and My Stories: one
 * "audio" file streamed to a temporary file and short text fields ("private"), refused past 25 MB
 * before it is read, then handed to `accept`, which checks it (size, type from the bytes, duration).
 */
export async function receiveAnswerFile(request: Request, accept: Accept): Promise<FileFormOutcome> {
  // Refused before reading: no length (it could be anything) or more than an answer can be.
  const length = Number(request.headers.get("content-length") ?? NaN);
  if (!Number.isFinite(length)) return { ok: false, error: "upload.missing", status: 411, close: true };
  if (length > MAX_UPLOAD_BYTES + 64 * 1024) return { ok: false, error: "upload.tooLarge", status: 413, close: true };
  const folder = await mkdtemp(path.join(tmpdir(), "heirloom-form-"));
  try {
    // One "audio" file streamed to disk and short text fields; anything else ends the parse.
    const body = await readMultipart(request, {
      fileFields: ["audio"],
      maxFileBytes: MAX_UPLOAD_BYTES,
      folder,
      maxFieldBytes: 100,
    });
    if (!body.ok)
      return body.problem === "tooLarge"
        ? { ok: false, error: "upload.tooLarge", status: 413, close: true }
        : {
            ok: false,
            // A body the parser cannot follow (cut short, a broken boundary) is not a missing file.
            error: { tooManyFiles: "upload.oneFile", badFileName: "upload.badFileName", malformed: "upload.garbled" }[
              body.problem
            ],
            status: 400,
            close: true,
          };
    // An empty part with no file name is what a browser sends when no file was chosen.
    const audio = body.files.find((file) => file.size > 0);
    if (!audio?.path)
      return {
        ok: false,
        error: body.files.some((file) => file.filename !== "") ? "upload.empty" : "upload.missing",
        status: 400,
        close: false,
      };
    const result = await accept({ file: audio.path, isPrivate: body.form.get("private") === "on" });
    if (!result.ok)
      return {
        ok: false,
        error: `upload.${result.problem}`,
        status: result.problem === "gone" ? 404 : 422,
        close: false,
      };
    return { ok: true, status: 200, close: false };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
