import { fileTypeFromBuffer } from "file-type";
import type { StorageService } from "~/services/storage.server";

export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
const PHOTO_TYPES = new Set(["image/jpeg", "image/png", "image/gif"]);

export type PhotoCheck = { ok: true; bytes: Uint8Array; contentType: string; extension: string } | { ok: false; error: "tooLarge" | "notAnImage" };

/** A profile photo is accepted by what its bytes are (JPEG, PNG or GIF), never by its name. */
export async function checkPhoto(file: File): Promise<PhotoCheck> {
  if (file.size > MAX_PHOTO_BYTES) return { ok: false, error: "tooLarge" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !PHOTO_TYPES.has(type.mime)) return { ok: false, error: "notAnImage" };
  return { ok: true, bytes, contentType: type.mime, extension: type.ext };
}

const PHOTO_CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", gif: "image/gif" };

/** A stored profile photo as a response; the caller has already decided who may see it. */
export async function photoResponse(storage: StorageService, key: string | null | undefined, headers: Record<string, string>): Promise<Response> {
  const stored = key ? await storage.get(key) : null;
  if (!key || !stored) throw new Response(null, { status: 404, headers });
  return new Response(stored.body, {
    headers: {
      ...headers,
      "Content-Type": PHOTO_CONTENT_TYPES[key.split(".").pop() ?? ""] ?? "application/octet-stream",
      "Content-Length": String(stored.size),
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
