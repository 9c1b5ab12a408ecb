import { fileTypeFromBuffer } from "file-type";
import type { StorageService } from "~/services/storage.server";

import { MAX_PHOTO_BYTES } from "~/utils/photo-size";

export { MAX_PHOTO_BYTES };
/** Stored photos fit in this square: enough for avatars and the record page on high-density screens. */
const PHOTO_MAX_SIDE = 512;
/** A book's cover photo prints about 90 mm wide: 1,400 px is 300 dpi there (decision 047). */
export const COVER_MAX_SIDE = 1400;
/** A few kilobytes can declare a huge image; refuse before decoding more pixels than any phone photo has. */
const MAX_INPUT_PIXELS = 100_000_000;

let sharpModule: Promise<typeof import("sharp").default> | undefined;
/** sharp (libvips, ~80 ms and some memory) loads with the first photo, not at boot. */
const loadSharp = () => (sharpModule ??= import("sharp").then((module) => module.default));

/**
 * Whether this sharp decodes HEIC (iPhone photos). Its prebuilt binaries carry libheif with AV1 only
 * (HEVC is patent-encumbered); libvips lists ".heic" among its suffixes only when it has an HEVC decoder.
 */
export async function heicDecodes() {
  return (await loadSharp()).format.heif.input.fileSuffix?.includes(".heic") ?? false;
}

const PHOTO_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const HEIC_TYPES = new Set(["image/heic", "image/heif"]);

export type PhotoCheck =
  | { ok: true; bytes: Uint8Array; contentType: string; extension: string }
  | { ok: false; error: "tooLarge" | "notAnImage" };

/**
 * A profile photo is accepted by what its bytes are (JPEG, PNG, GIF, WebP; HEIC where sharp decodes
 * it), never by its name, and stored as a fresh JPEG: turned upright by its EXIF orientation, fitted
 * within 512×512, and without any metadata (no GPS position, camera or date), since Storytellers and
 * email recipients see it. A file that does not decode is "not an image" (the first frame of an
 * animation is kept).
 */
export async function checkPhoto(file: File, maxSide = PHOTO_MAX_SIDE): Promise<PhotoCheck> {
  if (file.size > MAX_PHOTO_BYTES) return { ok: false, error: "tooLarge" };
  const input = new Uint8Array(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(input);
  if (!type || !(PHOTO_TYPES.has(type.mime) || (HEIC_TYPES.has(type.mime) && (await heicDecodes()))))
    return { ok: false, error: "notAnImage" };
  const sharp = await loadSharp();
  try {
    // sharp writes no EXIF, XMP, IPTC or ICC unless asked (keepExif/withMetadata): never ask.
    const bytes = await sharp(input, { autoOrient: true, limitInputPixels: MAX_INPUT_PIXELS })
      .resize(maxSide, maxSide, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" }) // JPEG has no transparency: show it on white, not black
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
    return { ok: true, bytes, contentType: "image/jpeg", extension: "jpg" };
  } catch {
    return { ok: false, error: "notAnImage" };
  }
}

// Photos stored before they were re-encoded may still be PNG or GIF.
const PHOTO_CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", gif: "image/gif" };

/** A stored profile photo as a response (404 when there is none); the caller has already decided who may see it. */
export async function photoResponse(
  storage: StorageService,
  key: string | null | undefined,
  headers: Record<string, string>,
): Promise<Response> {
  const stored = key ? await storage.get(key) : null;
  if (!key || !stored) return new Response(null, { status: 404, headers });
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
