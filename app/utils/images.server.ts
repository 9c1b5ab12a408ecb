import { fileTypeFromBuffer } from "file-type";

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
