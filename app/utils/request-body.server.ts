import { createWriteStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";

// One reader per kind of body: readForm (any form post), readMultipart (forms with files, streamed),
// readJson (webhooks and scripts). A body that is not what it claims is the client's mistake: 400.

const badRequest = () => new Response("Bad Request", { status: 400 });
const tooLarge = () => new Response("Content Too Large", { status: 413 });

/**
 * The most a form without files posts: a hundred questions of 300 Devanagari letters, percent-encoded
 * (9 bytes a letter), fit three times over. A larger body is read no further.
 */
export const MAX_FORM_BYTES = 1024 * 1024;

/** The body's bytes, or null once it passes `limit` (the rest is never read). */
export async function bytesAtMost(request: Request, limit: number): Promise<Uint8Array | null> {
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The request's form fields (url-encoded or multipart without files), at most MAX_FORM_BYTES of them. */
export async function readForm(request: Request): Promise<FormData> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) throw tooLarge();
  const bytes = await bytesAtMost(request, MAX_FORM_BYTES).catch(() => {
    throw badRequest();
  });
  if (!bytes) throw tooLarge();
  try {
    const type = request.headers.get("content-type") ?? "";
    return await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw badRequest();
  }
}

/** The most a provider's webhook posts (a status callback, a bounce); a larger body is read no further. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

/** The body as text, or null once it passes `limit` bytes (the rest is never read). */
export async function readTextAtMost(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return null;
  const bytes = await bytesAtMost(request, limit).catch(() => {
    throw badRequest();
  });
  return bytes && Buffer.from(bytes).toString("utf8");
}

/**
 * The request's JSON body, or null when it is not JSON; the caller validates its shape. A body past
 * `limit` bytes is a 413, read no further.
 */
export async function readJson(request: Request, limit = MAX_WEBHOOK_BYTES): Promise<unknown> {
  const text = await readTextAtMost(request, limit);
  if (text === null) throw tooLarge();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export type MultipartFile = {
  fieldName: string;
  filename: string;
  size: number;
  /** Where the file was streamed when `folder` was given. */
  path: string | null;
};

export type MultipartOptions = {
  /** The only fields that may carry a file, each at most once. */
  fileFields: string[];
  maxFileBytes: number;
  /** Stream files into this folder instead of keeping them in memory (as `File`s in `form`). */
  folder?: string;
  maxFields?: number;
  maxFieldBytes?: number;
};

/**
 * tooManyFiles: a file field sent twice (two recordings or photos in one post), told apart from a
 * malformed body; badFileName: a file name with control characters (NUL) or past `MAX_FILE_NAME`,
 * or a part header too long to read (16 KB: only a file name makes one that long).
 */
export type MultipartProblem = "tooLarge" | "tooManyFiles" | "badFileName" | "malformed";

/** Longer than any file system keeps (255 bytes): no one's file is called that. */
export const MAX_FILE_NAME = 255;
// eslint-disable-next-line no-control-regex
const CONTROL_IN_NAME = /[\u0000-\u001f\u007f]/;
const badFileName = (name: string) => name.length > MAX_FILE_NAME || CONTROL_IN_NAME.test(name);

export type MultipartResult =
  | { ok: true; form: FormData; files: MultipartFile[] }
  /** `form` (tooLarge only): the text fields sent ahead of the file too large. */
  | { ok: false; problem: MultipartProblem; form?: FormData };

/**
 * A multipart form read part by part as it arrives: text fields (short), and the named file fields,
 * in memory or streamed to `folder`. A file past `maxFileBytes`, or anything unexpected, ends the
 * parse at once, so nothing unexpected or oversized is ever held.
 */
export function readMultipart(request: Request, options: MultipartOptions): Promise<MultipartResult> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: {
        files: options.fileFields.length,
        fileSize: options.maxFileBytes,
        fields: options.maxFields ?? 20,
        fieldSize: options.maxFieldBytes ?? 1000,
      },
    });
  } catch {
    return Promise.resolve({ ok: false, problem: "malformed" });
  }
  if (!request.body) return Promise.resolve({ ok: false, problem: "malformed" });
  const body = Readable.fromWeb(request.body as NodeReadableStream);
  const form = new FormData();
  const files: MultipartFile[] = [];
  const saving: Promise<unknown>[] = [];

  return new Promise((resolve) => {
    let settled = false;
    const fail = (problem: MultipartProblem) => {
      if (settled) return;
      settled = true;
      body.unpipe(parser);
      // Paused, not destroyed: destroying drops the connection before the refusal can be sent.
      body.pause();
      // A file too large still leaves the fields sent before it (who wrote, to what).
      resolve(problem === "tooLarge" ? { ok: false, problem, form } : { ok: false, problem });
    };

    parser.on("field", (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return fail("malformed");
      form.append(name, value);
    });
    parser.on("file", (fieldName, stream, info) => {
      if (!options.fileFields.includes(fieldName) || files.some((file) => file.fieldName === fieldName)) {
        stream.resume();
        return fail(options.fileFields.includes(fieldName) ? "tooManyFiles" : "malformed");
      }
      if (badFileName(info.filename ?? "")) {
        stream.resume();
        return fail("badFileName");
      }
      const file: MultipartFile = { fieldName, filename: info.filename ?? "", size: 0, path: null };
      files.push(file);
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => {
        file.size += chunk.length;
        if (!options.folder) chunks.push(chunk);
      });
      stream.on("limit", () => fail("tooLarge"));
      const done = options.folder
        ? pipeline(stream, createWriteStream((file.path = path.join(options.folder, `${files.length}-${fieldName}`))))
        : new Promise<void>((resolveFile) => stream.on("end", resolveFile));
      saving.push(
        done.then(
          () => {
            if (!options.folder)
              form.append(
                fieldName,
                new File(chunks as Uint8Array<ArrayBuffer>[], file.filename, { type: info.mimeType }),
              );
          },
          () => fail("malformed"),
        ),
      );
    });
    parser.on("filesLimit", () => fail("tooManyFiles"));
    parser.on("fieldsLimit", () => fail("malformed"));
    // busboy's words for a part header past 16 KB (or one it cannot read): a file name, in practice.
    parser.on("error", (error: Error) => fail(error.message === "Malformed part header" ? "badFileName" : "malformed"));
    parser.on("close", () => {
      void Promise.all(saving).then(() => {
        if (settled) return;
        settled = true;
        resolve({ ok: true, form, files });
      });
    });
    body.on("error", () => fail("malformed"));
    body.pipe(parser);
  });
}
