import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A small S3-compatible server in memory, speaking the part of the S3 API the app uses, including
// what tus's S3 store needs and s3rver (tests/fake-s3.ts) lacks: ListParts, AbortMultipartUpload and
// ListMultipartUploads beside CreateMultipartUpload, UploadPart and CompleteMultipartUpload; plain
// Put/Get (with Range)/Head/Delete/DeleteObjects. Path-style URLs, signatures not checked.

type StoredObject = { body: Buffer; contentType: string; meta: Record<string, string>; etag: string; modified: Date };
type Part = { body: Buffer; etag: string; modified: Date };
type MultipartUpload = { key: string; initiated: Date; contentType: string; parts: Map<number, Part> };

const etagOf = (body: Buffer) => `"${createHash("md5").update(body).digest("hex")}"`;
const xmlEscape = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);
const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export type S3StandIn = Awaited<ReturnType<typeof startS3StandIn>>;

/** Starts the stand-in on a random loopback port with one empty bucket. */
export async function startS3StandIn(bucket = "heirloom-test") {
  const objects = new Map<string, StoredObject>();
  const uploads = new Map<string, MultipartUpload>();
  let requests = 0;

  const send = (res: http.ServerResponse, status: number, body = "", headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(body ? { "Content-Type": "application/xml" } : {}), ...headers });
    res.end(body);
  };
  const error = (res: http.ServerResponse, status: number, code: string, method?: string) =>
    method === "HEAD"
      ? send(res, status)
      : send(res, status, xml(`<Error><Code>${code}</Code><Message>${code}</Message></Error>`));

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    requests++;
    const url = new URL(req.url ?? "/", "http://s3");
    const [name, ...rest] = url.pathname.slice(1).split("/");
    const key = rest.map(decodeURIComponent).join("/");
    const query = url.searchParams;
    const method = req.method ?? "GET";
    if (name !== bucket) return error(res, 404, "NoSuchBucket", method);

    if (!key) {
      if (method === "POST" && query.has("delete")) {
        const body = (await readBody(req)).toString();
        const keys = [...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) =>
          m[1].replace(
            /&(lt|gt|amp|apos|quot);/g,
            (_e, n: string) => ({ lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' })[n]!,
          ),
        );
        for (const k of keys) objects.delete(k);
        const deleted = keys.map((k) => `<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`).join("");
        return send(res, 200, xml(`<DeleteResult>${deleted}</DeleteResult>`));
      }
      if (method === "GET" && query.has("uploads")) {
        const listed = [...uploads.entries()]
          .map(
            ([id, upload]) =>
              `<Upload><Key>${xmlEscape(upload.key)}</Key><UploadId>${id}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
          )
          .join("");
        return send(
          res,
          200,
          xml(
            `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${listed}</ListMultipartUploadsResult>`,
          ),
        );
      }
      if (method === "GET") {
        const prefix = query.get("prefix") ?? "";
        const contents = [...objects.entries()]
          .filter(([k]) => k.startsWith(prefix))
          .sort(([a], [b]) => a.localeCompare(b))
          .map(
            ([k, o]) =>
              `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${o.modified.toISOString()}</LastModified><ETag>${xmlEscape(o.etag)}</ETag><Size>${o.body.length}</Size></Contents>`,
          )
          .join("");
        return send(
          res,
          200,
          xml(
            `<ListBucketResult><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
          ),
        );
      }
      return error(res, 405, "MethodNotAllowed", method);
    }

    const uploadId = query.get("uploadId");
    if (method === "POST" && query.has("uploads")) {
      const id = randomUUID();
      uploads.set(id, {
        key,
        initiated: new Date(),
        contentType: req.headers["content-type"] ?? "application/octet-stream",
        parts: new Map(),
      });
      return send(
        res,
        200,
        xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
        ),
      );
    }
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key) return error(res, 404, "NoSuchUpload", method);
      if (method === "PUT") {
        const body = await readBody(req);
        const etag = etagOf(body);
        upload.parts.set(Number(query.get("partNumber")), { body, etag, modified: new Date() });
        return send(res, 200, "", { ETag: etag });
      }
      if (method === "GET") {
        const parts = [...upload.parts.entries()]
          .sort(([a], [b]) => a - b)
          .map(
            ([n, p]) =>
              `<Part><PartNumber>${n}</PartNumber><LastModified>${p.modified.toISOString()}</LastModified><ETag>${xmlEscape(p.etag)}</ETag><Size>${p.body.length}</Size></Part>`,
          )
          .join("");
        return send(
          res,
          200,
          xml(
            `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts}</ListPartsResult>`,
          ),
        );
      }
      if (method === "DELETE") {
        uploads.delete(uploadId);
        return send(res, 204);
      }
      if (method === "POST") {
        const body = (await readBody(req)).toString();
        const numbers = [...body.matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const parts = numbers.map((n) => upload.parts.get(n));
        if (parts.some((p) => !p)) return error(res, 400, "InvalidPart", method);
        const whole = Buffer.concat(parts.map((p) => p!.body));
        const etag = etagOf(whole);
        objects.set(key, { body: whole, contentType: upload.contentType, meta: {}, etag, modified: new Date() });
        uploads.delete(uploadId);
        return send(
          res,
          200,
          xml(
            `<CompleteMultipartUploadResult><Location>/${bucket}/${xmlEscape(key)}</Location><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`,
          ),
        );
      }
      return error(res, 405, "MethodNotAllowed", method);
    }
    if (query.has("tagging")) return send(res, 200, xml("<Tagging><TagSet></TagSet></Tagging>"));

    if (method === "PUT") {
      const body = await readBody(req);
      const meta = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([h]) => h.startsWith("x-amz-meta-"))
          .map(([h, v]) => [h, String(v)]),
      );
      const etag = etagOf(body);
      const contentType = req.headers["content-type"] ?? "application/octet-stream";
      objects.set(key, { body, contentType, meta, etag, modified: new Date() });
      return send(res, 200, "", { ETag: etag });
    }
    if (method === "DELETE") {
      objects.delete(key);
      return send(res, 204);
    }
    if (method === "GET" || method === "HEAD") {
      const object = objects.get(key);
      if (!object) return error(res, 404, "NoSuchKey", method);
      const headers: Record<string, string> = {
        "Content-Type": object.contentType,
        ETag: object.etag,
        "Last-Modified": object.modified.toUTCString(),
        "Accept-Ranges": "bytes",
        ...object.meta,
      };
      let body = object.body;
      let status = 200;
      const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
      if (range && method === "GET") {
        const size = object.body.length;
        const start = range[1] ? Number(range[1]) : size - Number(range[2]);
        const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (start >= size || start > end) return error(res, 416, "InvalidRange", method);
        body = object.body.subarray(start, end + 1);
        headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
        status = 206;
      }
      headers["Content-Length"] = String(body.length);
      res.writeHead(status, headers);
      return res.end(method === "HEAD" ? undefined : body);
    }
    return error(res, 405, "MethodNotAllowed", method);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) error(res, 500, "InternalError");
      else res.destroy(err as Error);
    });
  });
  // The SDK keeps connections open between requests; S3 does not close them after Node's 5 s.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    /** What the bucket holds now (key → bytes), and the multipart uploads not completed. */
    objects,
    uploads,
    requestCount: () => requests,
    /** Settings pointing the app (storage and tus) at this server. */
    config: {
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: "STANDIN",
      S3_SECRET_ACCESS_KEY: "STANDIN-SECRET",
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
