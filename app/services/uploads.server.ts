import path from "node:path";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import type { Config } from "~/config.server";
import { s3ClientConfig } from "./storage.server";

// Where resumable uploads wait until their last byte: the HTTP handler that takes them (and turns
// them into answers) is server/uploads.ts; the cleanup job drops the abandoned ones.

/** An upload nobody finished is dropped after this long (the recording is still on the phone). */
const ABANDONED_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** Where unfinished uploads live: S3 (multipart) when configured, else DATA_DIR/uploads. */
export function createUploadStore(config: Config) {
  return config.S3_BUCKET
    ? new S3Store({
        partSize: 8 * 1024 * 1024,
        expirationPeriodInMilliseconds: ABANDONED_AFTER_MS,
        s3ClientConfig: { bucket: config.S3_BUCKET, ...s3ClientConfig(config) },
      })
    : new FileStore({
        directory: path.resolve(config.DATA_DIR, "uploads"),
        expirationPeriodInMilliseconds: ABANDONED_AFTER_MS,
      });
}
