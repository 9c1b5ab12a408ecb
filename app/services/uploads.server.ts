import path from "node:path";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import { ERRORS, type KvStore } from "@tus/server";
import type { Config } from "~/config.server";
import { s3ClientConfig } from "./storage.server";

// Where resumable uploads wait until their last byte: the HTTP handler that takes them (and turns
// them into answers) is server/uploads.ts; the cleanup job drops the abandoned ones.

/** An upload nobody finished is dropped after this long (the recording is still on the phone). */
const ABANDONED_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The first key of every upload's PostgreSQL advisory lock (server/upload-locker.ts), "tus\0":
 * two-key advisory locks never meet one-key ones, so nothing else in the database takes these.
 */
export const UPLOAD_LOCK_SPACE = 0x74757300;

/**
 * S3Store keeps each upload's `.info` in the bucket and, by default, a copy in this process's
 * memory that nobody else can clear: another web process finishing and removing the upload would
 * leave this one answering for it as if it still existed. Every process reads the bucket instead.
 */
const noCache: KvStore<never> = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
};

/**
 * S3Store's `remove` aborts the multipart upload first and stops there when it is already complete
 * (S3 answers NoSuchUpload), leaving the finished object and its `.info` in the bucket for good.
 * Removing an upload we have turned into an answer must leave nothing.
 */
class S3UploadStore extends S3Store {
  override async remove(id: string) {
    try {
      await super.remove(id);
    } catch (error) {
      if (error !== ERRORS.FILE_NOT_FOUND) throw error;
      await this.client.deleteObjects({
        Bucket: this.bucket,
        Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }] },
      });
      throw error;
    }
  }
}

/**
 * Where unfinished uploads live: S3 (multipart) when configured, shared by every process; else
 * DATA_DIR/uploads (data and `.json` metadata side by side), shared only by processes that share
 * that folder (decision 024).
 */
export function createUploadStore(config: Config) {
  return config.S3_BUCKET
    ? new S3UploadStore({
        partSize: 8 * 1024 * 1024,
        expirationPeriodInMilliseconds: ABANDONED_AFTER_MS,
        cache: noCache,
        s3ClientConfig: { bucket: config.S3_BUCKET, ...s3ClientConfig(config) },
      })
    : new FileStore({
        directory: path.resolve(config.DATA_DIR, "uploads"),
        expirationPeriodInMilliseconds: ABANDONED_AFTER_MS,
      });
}
