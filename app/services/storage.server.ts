import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, open, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import type { Config } from "~/config.server";

/** Inclusive byte positions, already checked against the object's size by the caller. */
export type ByteRange = { start: number; end: number };
/** `size` is always the whole object's size, also when `body` holds only a range of it. */
export type StoredObject = { body: ReadableStream<Uint8Array>; size: number };

/**
 * Private file storage. Keys are chosen by the server (never from a file name). Files are served
 * only by routes that check who is asking first (see ~/services/serve-file.server).
 */
export interface StorageService {
  readonly name: "local" | "s3";
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** Streams into storage without holding the whole body in memory; the object appears only when complete. Resolves with bytes written. */
  putStream(
    key: string,
    body: NodeJS.ReadableStream | ReadableStream<Uint8Array>,
    contentType: string,
  ): Promise<{ size: number }>;
  /** The object (or just `range` of it); null when missing. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  head(key: string): Promise<{ size: number } | null>;
  /** Missing is fine. */
  delete(key: string): Promise<void>;
}

type S3Settings = Pick<Config, "S3_BUCKET" | "S3_REGION" | "S3_ENDPOINT" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY">;

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

function checkKey(key: string) {
  if (!SAFE_KEY.test(key) || key.includes("..") || key.includes("//") || key.endsWith("/"))
    throw new Error(`unsafe storage key: ${key}`);
  return key;
}

function checkRange(range: ByteRange) {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`invalid byte range ${start}-${end}`);
  }
}

function toNodeReadable(body: NodeJS.ReadableStream | ReadableStream<Uint8Array>): NodeJS.ReadableStream {
  if (typeof (body as ReadableStream<Uint8Array>).getReader === "function") {
    return Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>);
  }
  return body as NodeJS.ReadableStream;
}

/** Copies `body` into `file` chunk by chunk (back-pressure respected), counting the bytes. */
async function streamToFile(body: NodeJS.ReadableStream | ReadableStream<Uint8Array>, file: string) {
  let size = 0;
  await pipeline(
    toNodeReadable(body),
    async function* count(source: AsyncIterable<Uint8Array | string>) {
      for await (const chunk of source) {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        size += bytes.byteLength;
        yield bytes;
      }
    },
    // 0600: recordings are private, also from other users of the machine.
    createWriteStream(file, { flags: "wx", mode: 0o600 }),
  );
  return size;
}

function temporaryName(file: string) {
  return `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.part`;
}

/** Files under DATA_DIR/files; each write goes to a temporary name first, so readers never see half a file. */
export function createLocalStorage(root: string): StorageService {
  const fileFor = (key: string) => path.join(root, checkKey(key));
  return {
    name: "local",
    async put(key, data) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = temporaryName(file);
      try {
        await writeFile(temporary, data, { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async putStream(key, body) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = temporaryName(file);
      try {
        const size = await streamToFile(body, temporary);
        await rename(temporary, file);
        return { size };
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const file = fileFor(key);
      if (range) checkRange(range);
      // Open first, then stat the open file: a concurrent put (rename) cannot mix two versions.
      let handle;
      try {
        handle = await open(file, "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
        return { size, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async head(key) {
      const file = fileFor(key);
      try {
        const handle = await open(file, "r");
        try {
          return { size: (await handle.stat()).size };
        } finally {
          await handle.close();
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
  };
}

/** The S3 client options for these settings; exported so tests and tools build the same client. */
export function s3ClientConfig(config: S3Settings): S3ClientConfig {
  const options: S3ClientConfig = { region: config.S3_REGION };
  if (config.S3_ENDPOINT) {
    // MinIO, R2, Backblaze, s3rver…: path-style URLs (http://host/bucket/key) work everywhere,
    // and their support for the SDK's newer default checksums (aws-chunked trailers) varies.
    options.endpoint = config.S3_ENDPOINT;
    options.forcePathStyle = true;
    options.requestChecksumCalculation = "WHEN_REQUIRED";
    options.responseChecksumValidation = "WHEN_REQUIRED";
  }
  if (config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY) {
    options.credentials = { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY };
  }
  // Otherwise the SDK's default chain (AWS_* variables, instance or task role) applies.
  return options;
}

function isMissing(error: unknown) {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  // A missing bucket is a configuration error, not a missing object.
  if (name === "NoSuchBucket") return false;
  return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
}

/** `bytes 0-9/1234` → 1234 */
function sizeFromContentRange(contentRange: string | undefined) {
  const match = /\/(\d+)\s*$/.exec(contentRange ?? "");
  return match ? Number(match[1]) : undefined;
}

/** Objects in a private bucket (no ACL is ever set; the bucket's policy decides, and it should deny public reads). */
export function createS3Storage(config: S3Settings): StorageService {
  const Bucket = config.S3_BUCKET;
  if (!Bucket) throw new Error("createS3Storage needs S3_BUCKET");
  const client = new S3Client(s3ClientConfig(config));

  const head = async (key: string) => {
    try {
      const result = await client.send(new HeadObjectCommand({ Bucket, Key: checkKey(key) }));
      return { size: result.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  return {
    name: "s3",
    async put(key, data, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: checkKey(key),
          Body: data,
          ContentType: contentType,
          ContentLength: data.byteLength,
        }),
      );
    },
    async putStream(key, body, contentType) {
      checkKey(key);
      // PutObject needs the length up front; spooling to a private temporary file learns it without
      // holding the body in memory. S3 shows the object only once the PUT completes.
      const directory = await mkdtemp(path.join(os.tmpdir(), "heirloom-upload-"));
      try {
        const file = path.join(directory, "body");
        const size = await streamToFile(body, file);
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: key,
            Body: createReadStream(file),
            ContentType: contentType,
            ContentLength: size,
          }),
        );
        return { size };
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
    async get(key, range) {
      if (range) checkRange(range);
      let result;
      try {
        result = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: checkKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      if (!result.Body) throw new Error(`S3 returned no body for ${key}`);
      const body = result.Body.transformToWebStream() as ReadableStream<Uint8Array>;
      let size = range ? sizeFromContentRange(result.ContentRange) : result.ContentLength;
      if (size === undefined) {
        const found = await head(key);
        if (!found) {
          await body.cancel();
          return null;
        }
        size = found.size;
      }
      return { size, body };
    },
    head,
    async delete(key) {
      // DeleteObject succeeds for a missing key.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
  };
}

/** S3 when S3_BUCKET is set, else files under DATA_DIR/files. */
export function createStorageService(config: Config): StorageService {
  if (config.S3_BUCKET) return createS3Storage(config);
  return createLocalStorage(path.resolve(config.DATA_DIR, "files"));
}
