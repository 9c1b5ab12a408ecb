import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { Config } from "~/config.server";

export type StoredObject = { body: ReadableStream<Uint8Array>; size: number };

/**
 * Private file storage. Keys are chosen by the server (never from a file name). Files are served
 * only by routes that check who is asking first.
 */
export interface StorageService {
  readonly name: "local" | "s3";
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

/** Files under DATA_DIR/files; each write goes to a temporary name first, so readers never see half a file. */
export function createLocalStorage(root: string): StorageService {
  const fileFor = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes("..")) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    name: "local",
    async put(key, data) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Date.now()}.part`;
      await writeFile(temporary, data);
      await rename(temporary, file);
    },
    async get(key) {
      const file = fileFor(key);
      try {
        const { size } = await stat(file);
        return { size, body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array> };
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

export function createStorageService(config: Config): StorageService {
  if (config.S3_BUCKET) {
    // Arrives with the recording issue (@aws-sdk/client-s3); refusing to start beats silently
    // keeping files on a container's disk when the operator asked for S3.
    throw new Error("S3_BUCKET is set, but S3 storage is not available in this version yet: unset it to store files under DATA_DIR");
  }
  return createLocalStorage(path.resolve(config.DATA_DIR, "files"));
}
