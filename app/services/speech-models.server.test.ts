import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeApi } from "../../tests/fake-http-server";
import {
  downloadVerified,
  ensureSpeechModel,
  ModelDownloadError,
  SPEECH_MODELS,
  speechModelLocation,
} from "./speech-models.server";

// A small "model" with a known checksum, served with or without Range support.
const MODEL = randomBytes(300_000);
const SHA256 = createHash("sha256").update(MODEL).digest("hex");
let honourRange = true;
let api: Awaited<ReturnType<typeof startFakeApi>>;

beforeAll(async () => {
  api = await startFakeApi((request, res) => {
    const range = /^bytes=(\d+)-$/.exec(String(request.headers.range ?? ""));
    if (range && honourRange) {
      const from = Number(range[1]);
      if (from >= MODEL.length) {
        res.writeHead(416).end();
        return;
      }
      res.writeHead(206, {
        "Content-Length": MODEL.length - from,
        "Content-Range": `bytes ${from}-${MODEL.length - 1}/${MODEL.length}`,
      });
      res.end(MODEL.subarray(from));
      return;
    }
    res.writeHead(200, { "Content-Length": MODEL.length }).end(MODEL);
  });
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  honourRange = true;
  api.requests.length = 0;
});

const folder = () => mkdtemp(path.join(os.tmpdir(), "heirloom-model-download-"));

describe("downloadVerified", () => {
  it("downloads, checks the SHA-256 and renames into place, reporting progress", async () => {
    const file = path.join(await folder(), "ggml-test.bin");
    const progress: number[] = [];
    await downloadVerified(
      { url: `${api.url}/ggml-test.bin`, file, sha256: SHA256 },
      { onProgress: (received) => progress.push(received) },
    );
    expect((await readFile(file)).equals(MODEL)).toBe(true);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(progress.at(-1)).toBe(MODEL.length);
    expect(progress.length).toBeGreaterThan(1);
  });

  it("refuses a file whose checksum is not the pinned one, keeping nothing", async () => {
    const file = path.join(await folder(), "ggml-test.bin");
    const wrong = "0".repeat(64);
    await expect(downloadVerified({ url: `${api.url}/ggml-test.bin`, file, sha256: wrong })).rejects.toThrow(
      new ModelDownloadError(
        `ggml-test.bin from ${api.url}/ggml-test.bin has SHA-256 ${SHA256}, expected ${wrong}: refused`,
      ),
    );
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it("resumes a partial download with a Range request", async () => {
    const file = path.join(await folder(), "ggml-test.bin");
    await writeFile(`${file}.partial`, MODEL.subarray(0, 123_456));
    await downloadVerified({ url: `${api.url}/ggml-test.bin`, file, sha256: SHA256 });
    expect(api.requests[0].headers.range).toBe("bytes=123456-");
    expect((await readFile(file)).equals(MODEL)).toBe(true);
  });

  it("starts again when the server sends the whole file instead of the range", async () => {
    honourRange = false;
    const file = path.join(await folder(), "ggml-test.bin");
    await writeFile(`${file}.partial`, Buffer.from("stale bytes of an older download"));
    await downloadVerified({ url: `${api.url}/ggml-test.bin`, file, sha256: SHA256 });
    expect((await readFile(file)).equals(MODEL)).toBe(true);
  });

  it("throws on a server error, keeping the partial file for the next try", async () => {
    const file = path.join(await folder(), "ggml-test.bin");
    await expect(downloadVerified({ url: "http://127.0.0.1:9/ggml-test.bin", file, sha256: SHA256 })).rejects.toThrow();
    expect(existsSync(file)).toBe(false);
  });
});

describe("ensureSpeechModel", () => {
  it("fetches a named model from SPEECH_MODEL_URL into SPEECH_MODEL_DIR, or uses the file already there", async () => {
    const dir = await folder();
    const config = { DATA_DIR: ".data", SPEECH_MODEL: "base-q5_1", SPEECH_MODEL_DIR: dir, SPEECH_MODEL_URL: api.url };
    expect(speechModelLocation(config).pinned?.url).toBe(`${api.url}/ggml-base-q5_1.bin`);
    // The test server's file is not the real model: its checksum is refused.
    await expect(ensureSpeechModel(config)).rejects.toThrow(/expected 422f1ae4.*: refused/);
    // An admin who copied the file by hand: used as it is, nothing fetched.
    await writeFile(path.join(dir, SPEECH_MODELS["base-q5_1"].file), "copied by hand");
    api.requests.length = 0;
    expect(await ensureSpeechModel(config)).toBe(path.join(dir, "ggml-base-q5_1.bin"));
    expect(api.requests).toEqual([]);
  });

  it("keeps named models under DATA_DIR/models and takes any other value as a path", () => {
    expect(speechModelLocation({ DATA_DIR: "/srv/heirloom", SPEECH_MODEL: "small-q5_1" }).file).toBe(
      "/srv/heirloom/models/ggml-small-q5_1.bin",
    );
    expect(speechModelLocation({ DATA_DIR: "/srv/heirloom", SPEECH_MODEL: "/opt/models/my.bin" })).toEqual({
      name: "/opt/models/my.bin",
      file: "/opt/models/my.bin",
      pinned: null,
    });
  });
});
