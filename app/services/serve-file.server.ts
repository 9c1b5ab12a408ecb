import type { ByteRange, StorageService } from "~/services/storage.server";

export type ServeFileOptions = {
  contentType: string;
  /** Offered as the download name; any characters (Hindi, quotes…) are fine. */
  filename?: string;
  /** Default `inline`. */
  disposition?: "inline" | "attachment";
  /** Default `private, no-store`. */
  cacheControl?: string;
  /** Extra headers (e.g. Referrer-Policy); they cannot replace the ones this function sets. */
  headers?: Record<string, string>;
};

type RangeRequest = { kind: "none" } | { kind: "unsatisfiable" } | { kind: "range"; range: ByteRange };

/**
 * Reads a `Range` header against an object of `size` bytes (RFC 9110 §14). Only a single
 * `bytes=` range is honoured; several ranges or anything malformed count as no Range header,
 * which the RFC allows (the whole object is sent with 200).
 */
function parseRangeHeader(header: string | null, size: number): RangeRequest {
  if (header === null) return { kind: "none" };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: "none" };
  const [, first, last] = match;
  if (first === "" && last === "") return { kind: "none" };
  if (first === "") {
    // bytes=-n: the last n bytes
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === "" ? Infinity : Number(last);
  if (end < start) return { kind: "none" }; // invalid range-spec: ignore the header
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "range", range: { start, end: Math.min(end, size - 1) } };
}

/** `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded` (RFC 6266 / RFC 8187). */
function contentDisposition(disposition: "inline" | "attachment", filename?: string) {
  if (filename === undefined) return disposition;
  // No control characters or path separators, whatever the client does with the name.
  const name =
    filename
      .replace(/\p{Cc}/gu, "")
      .replace(/[/\\]/g, "_")
      .trim() || "download";
  return `${disposition}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

/** For the rare client without filename* support: accents dropped, other non-ASCII and quotes replaced. */
function asciiFallback(name: string) {
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/["]/g, "'")
    .replace(/[^\x20-\x7e]+/g, "_")
    .replace(/[%\\]/g, "_");
  const dot = ascii.lastIndexOf(".");
  const stem = dot > 0 ? ascii.slice(0, dot) : ascii;
  const extension = dot > 0 ? ascii.slice(dot) : "";
  // Nothing readable left (e.g. a Hindi name): a neutral name keeps the extension.
  return /[A-Za-z0-9]/.test(stem) ? ascii : `download${/^\.[A-Za-z0-9]+$/.test(extension) ? extension : ""}`;
}

function encodeRfc8187(value: string) {
  // encodeURIComponent leaves ' ( ) * unescaped, which are not attr-chars.
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Answers a GET or HEAD for a stored object, with seeking (single byte ranges) and safe headers:
 * `nosniff`, the given type, `Content-Disposition`, `private, no-store` unless told otherwise.
 * The caller has already checked that the requester may see the file. A missing object throws a 404.
 */
export async function serveStoredFile(
  request: Request,
  storage: StorageService,
  key: string,
  options: ServeFileOptions,
): Promise<Response> {
  const headers = new Headers(options.headers);
  headers.set("Content-Type", options.contentType);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Disposition", contentDisposition(options.disposition ?? "inline", options.filename));
  headers.set("Cache-Control", options.cacheControl ?? "private, no-store");
  headers.set("Accept-Ranges", "bytes");

  const notFound = () => new Response(null, { status: 404 });

  if (request.method === "HEAD") {
    // Range is defined for GET only (RFC 9110 §14.2), so HEAD describes the whole object.
    const found = await storage.head(key);
    if (!found) throw notFound();
    headers.set("Content-Length", String(found.size));
    return new Response(null, { status: 200, headers });
  }

  // We send no validators (ETag, Last-Modified), so an If-Range can never match: send it all.
  const rangeHeader = request.headers.has("If-Range") ? null : request.headers.get("Range");
  if (rangeHeader === null) {
    const whole = await storage.get(key);
    if (!whole) throw notFound();
    headers.set("Content-Length", String(whole.size));
    return new Response(whole.body, { status: 200, headers });
  }

  const found = await storage.head(key);
  if (!found) throw notFound();
  const wanted = parseRangeHeader(rangeHeader, found.size);
  if (wanted.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${found.size}`);
    headers.set("Content-Length", "0");
    return new Response(null, { status: 416, headers });
  }
  const part = await storage.get(key, wanted.kind === "range" ? wanted.range : undefined);
  if (!part) throw notFound();
  if (wanted.kind === "none") {
    headers.set("Content-Length", String(part.size));
    return new Response(part.body, { status: 200, headers });
  }
  const { start, end } = wanted.range;
  headers.set("Content-Range", `bytes ${start}-${end}/${found.size}`);
  headers.set("Content-Length", String(end - start + 1));
  return new Response(part.body, { status: 206, headers });
}
