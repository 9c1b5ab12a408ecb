import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStoredFile } from "~/services/serve-file.server";
import { createLocalStorage, type StorageService } from "~/services/storage.server";

const KEY = "answers/serve-test.m4a";
const SIZE = 1000;
const DATA = Uint8Array.from({ length: SIZE }, (_, i) => (i * 7) % 256);

let root: string;
let storage: StorageService;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "heirloom-serve-file-test-"));
  storage = createLocalStorage(root);
  await storage.put(KEY, DATA, "audio/mp4");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function request(headers: Record<string, string> = {}, method = "GET") {
  return new Request("http://localhost:3000/answers/1/audio", { method, headers });
}

const serve = (req: Request, options: Partial<Parameters<typeof serveStoredFile>[3]> = {}, key = KEY) =>
  serveStoredFile(req, storage, key, { contentType: "audio/mp4", ...options });

async function bodyOf(response: Response) {
  return new Uint8Array(await response.arrayBuffer());
}

describe("serveStoredFile", () => {
  it("sends the whole object with 200 and safe headers", async () => {
    const response = await serve(request());
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual(DATA);
    expect(response.headers.get("Content-Length")).toBe(String(SIZE));
    expect(response.headers.get("Content-Type")).toBe("audio/mp4");
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Content-Disposition")).toBe("inline");
    expect(response.headers.get("Content-Range")).toBeNull();
  });

  it.each([
    ["bytes=10-19", 10, 19],
    ["bytes=0-0", 0, 0],
    ["bytes=0-1", 0, 1], // Safari's probe
    ["bytes=990-", 990, 999],
    ["bytes=0-", 0, 999],
    ["bytes=-5", 995, 999],
    ["bytes=-5000", 0, 999], // a suffix longer than the object: all of it
    ["bytes=500-99999", 500, 999], // a last position past the end is clamped
    ["bytes=999-999", 999, 999],
    ["Bytes = 3 - 4", 3, 4],
  ])("answers %s with 206 and exactly bytes %i-%i", async (range, start, end) => {
    const response = await serve(request({ Range: range }));
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes ${start}-${end}/${SIZE}`);
    expect(response.headers.get("Content-Length")).toBe(String(end - start + 1));
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Type")).toBe("audio/mp4");
    expect(await bodyOf(response)).toEqual(DATA.subarray(start, end + 1));
  });

  it.each(["bytes=1000-", "bytes=1000-1001", "bytes=5000-", "bytes=-0", "bytes=99999999999999999999-"])(
    "answers unsatisfiable %s with 416 and the size",
    async (range) => {
      const response = await serve(request({ Range: range }));
      expect(response.status).toBe(416);
      expect(response.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(await bodyOf(response)).toEqual(new Uint8Array());
    },
  );

  it.each([
    "bytes=abc",
    "bytes=5-2",
    "bytes=-",
    "bytes=",
    "items=0-1",
    "0-1",
    "bytes=0-1,5-6",
    "bytes=0-1, 900-",
    "bytes=1.5-2",
  ])("ignores malformed or multiple ranges (%s): 200 with the whole object", async (range) => {
    const response = await serve(request({ Range: range }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Length")).toBe(String(SIZE));
    expect(response.headers.get("Content-Range")).toBeNull();
    expect(await bodyOf(response)).toEqual(DATA);
  });

  it("sends everything for an If-Range it cannot match (no validators are sent)", async () => {
    const response = await serve(request({ Range: "bytes=0-9", "If-Range": '"some-etag"' }));
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual(DATA);
  });

  it("answers HEAD with the headers and no body, ignoring Range", async () => {
    for (const headers of [{}, { Range: "bytes=0-9" }] as Record<string, string>[]) {
      const response = await serve(request(headers, "HEAD"));
      expect(response.status).toBe(200);
      expect(response.body).toBeNull();
      expect(response.headers.get("Content-Length")).toBe(String(SIZE));
      expect(response.headers.get("Accept-Ranges")).toBe("bytes");
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(response.headers.get("Content-Type")).toBe("audio/mp4");
    }
  });

  it("throws a 404 Response for a missing object, for GET, ranged GET and HEAD", async () => {
    for (const req of [request(), request({ Range: "bytes=0-1" }), request({}, "HEAD")]) {
      const thrown = await serve(req, {}, "answers/missing.m4a").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
    }
  });

  it("names a Hindi file so that it survives (RFC 5987 filename* with an ASCII fallback)", async () => {
    const filename = "नानी – पहला घर.m4a";
    const response = await serve(request(), { filename, disposition: "attachment" });
    const header = response.headers.get("Content-Disposition")!;
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(header).toBe(`attachment; filename="download.m4a"; filename*=UTF-8''${encodeURIComponent(filename)}`);
    const encoded = /filename\*=UTF-8''([^;]+)$/.exec(header)![1];
    expect(decodeURIComponent(encoded)).toBe(filename);
  });

  it("keeps quotes from breaking the header, while filename* keeps the exact name", async () => {
    const filename = `Grandma's "best" story (1947)*.m4a`;
    const response = await serve(request(), { filename, disposition: "attachment" });
    const header = response.headers.get("Content-Disposition")!;
    const fallback = /filename="([^"]*)";/.exec(header)![1];
    expect(fallback).toBe("Grandma's 'best' story (1947)*.m4a");
    const encoded = /filename\*=UTF-8''([^;]+)$/.exec(header)![1];
    expect(encoded).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/); // RFC 8187 attr-chars and escapes only
    expect(decodeURIComponent(encoded)).toBe(filename);
    expect(header.startsWith('attachment; filename="')).toBe(true);
  });

  it("keeps accented Latin names readable in the fallback and drops control characters and slashes", async () => {
    const response = await serve(request(), { filename: "Mémé\r\n/../José.m4a" });
    const header = response.headers.get("Content-Disposition")!;
    expect(header).toContain(`inline; filename="Meme_.._Jose.m4a"`);
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)$/.exec(header)![1])).toBe("Mémé_.._José.m4a");
  });

  it("uses the given Cache-Control and extra headers, but extra headers cannot undo nosniff", async () => {
    const response = await serve(request({ Range: "bytes=0-3" }), {
      cacheControl: "private, max-age=60",
      headers: { "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "off", "Content-Type": "text/html" },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=60");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Type")).toBe("audio/mp4");
  });

  it("serves an empty object whole, and refuses any range of it", async () => {
    await storage.put("answers/empty.m4a", new Uint8Array(), "audio/mp4");
    const whole = await serve(request(), {}, "answers/empty.m4a");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Length")).toBe("0");
    const ranged = await serve(request({ Range: "bytes=-10" }), {}, "answers/empty.m4a");
    expect(ranged.status).toBe(416);
    expect(ranged.headers.get("Content-Range")).toBe("bytes */0");
  });
});
