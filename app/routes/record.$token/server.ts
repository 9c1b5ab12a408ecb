import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { data } from "react-router";
import type { AppContext } from "~/context.server";
import { acceptRecording } from "~/models/answer.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { MAX_UPLOAD_BYTES } from "~/services/audio-check.server";
import { readMultipart } from "~/utils/request-body.server";

/** What the page shows after a post; `error` and `sendError` are translation keys (record namespace). */
export type ActionResult = { ok: boolean; error?: string; skipped?: boolean; sentTo?: string; sendError?: string };

export const reply = (result: ActionResult, status = 200) => data(result, { status, headers: capabilityPageHeaders });
// Answered before the body was read to its end: close the connection so nothing reuses it mid-body.
const refuse = (result: ActionResult, status: number) =>
  data(result, { status, headers: { ...capabilityPageHeaders, Connection: "close" } });

/**
 * The answer as a plain multipart post (without JavaScript): one "audio" file streamed to a
 * temporary file and short text fields, refused past 25 MB before it is read.
 */
export async function answerFromFileForm(context: AppContext, request: Request, promptId: string) {
  // Refused before reading: no length (it could be anything) or more than an answer can be.
  const length = Number(request.headers.get("content-length") ?? NaN);
  if (!Number.isFinite(length)) return refuse({ ok: false, error: "upload.missing" }, 411);
  if (length > MAX_UPLOAD_BYTES + 64 * 1024) return refuse({ ok: false, error: "upload.tooLarge" }, 413);
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
      return refuse(
        { ok: false, error: body.problem === "tooLarge" ? "upload.tooLarge" : "upload.missing" },
        body.problem === "tooLarge" ? 413 : 400,
      );
    // An empty part with no file name is what a browser sends when no file was chosen.
    const audio = body.files.find((file) => file.size > 0);
    if (!audio?.path)
      return reply(
        { ok: false, error: body.files.some((file) => file.filename !== "") ? "upload.empty" : "upload.missing" },
        400,
      );
    const result = await acceptRecording(context, {
      promptId,
      file: audio.path,
      isPrivate: body.form.get("private") === "on",
    });
    if (!result.ok)
      return reply({ ok: false, error: `upload.${result.problem}` }, result.problem === "gone" ? 404 : 422);
    return reply({ ok: true });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
