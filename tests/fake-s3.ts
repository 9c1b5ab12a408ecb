import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> };
type S3rverOptions = {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
};
// s3rver ships no type declarations; this is the part of its API the tests use.
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: S3rverOptions) => S3rverInstance;

/** Credentials s3rver accepts (it checks signatures made with them). */
const FAKE_S3_CREDENTIALS = { S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" } as const;

/**
 * An in-process S3-compatible server (s3rver) on a random loopback port, storing into a fresh
 * temporary directory, with one empty bucket. `close` stops it and removes the directory.
 */
export async function startFakeS3(bucket = "heirloom-test") {
  const directory = await mkdtemp(path.join(os.tmpdir(), "heirloom-fake-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    /** Settings for createS3Storage / s3ClientConfig pointing at this server. */
    config: {
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      ...FAKE_S3_CREDENTIALS,
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
