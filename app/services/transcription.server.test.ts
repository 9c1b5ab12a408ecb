import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendJson, startFakeApi } from "../../tests/fake-http-server";
import {
  audioFilename,
  createTranscriber,
  PermanentTranscriptionError,
  type Transcriber,
} from "./transcription.server";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function fakeSpeechApi(status: number, body: unknown) {
  const api = await startFakeApi((_request, res) => sendJson(res, status, body));
  closers.push(api.close);
  return api;
}

const transcriberFor = (url: string, model = "whisper-1"): Transcriber =>
  createTranscriber({ TRANSCRIBE_URL: url, TRANSCRIBE_API_KEY: "sk-test-key", TRANSCRIBE_MODEL: model })!;

/** The parts of a multipart/form-data body: name → { filename, contentType, value }. */
function multipartFields(contentTypeHeader: string | undefined, body: Buffer) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentTypeHeader ?? "");
  expect(boundary, "a multipart boundary in Content-Type").not.toBeNull();
  const delimiter = Buffer.from(`--${boundary![1] ?? boundary![2]}`);
  const fields: Record<string, { filename?: string; contentType?: string; value: Buffer }> = {};
  let start = body.indexOf(delimiter) + delimiter.length;
  for (;;) {
    const end = body.indexOf(delimiter, start);
    if (end < 0) break;
    const part = body.subarray(start + 2, end - 2); // after CRLF, before CRLF
    const headerEnd = part.indexOf("\r\n\r\n");
    const headers = part.subarray(0, headerEnd).toString("utf8");
    const name = /name="([^"]*)"/.exec(headers)![1];
    fields[name] = {
      filename: /filename="([^"]*)"/.exec(headers)?.[1],
      contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim(),
      value: part.subarray(headerEnd + 4),
    };
    start = end + delimiter.length;
  }
  return fields;
}

describe("the speech-to-text client (OpenAI-compatible API)", () => {
  it("is not there without TRANSCRIBE_URL", () => {
    expect(
      createTranscriber({ TRANSCRIBE_URL: undefined, TRANSCRIBE_API_KEY: undefined, TRANSCRIBE_MODEL: "whisper-1" }),
    ).toBeNull();
  });

  it("posts the audio, model and language hint as multipart to /audio/transcriptions with the bearer key, and returns the trimmed text", async () => {
    const api = await fakeSpeechApi(200, { text: "  When I was a girl in Lucknow…  \n" });
    const audio = Buffer.from("OggS fake opus audio, ASCII so the recorded string body keeps every byte");
    const text = await transcriberFor(`${api.url}/v1/`, "whisper-large").transcribe({
      audio,
      contentType: "audio/ogg;codecs=opus",
      language: "hi",
    });

    expect(text).toBe("When I was a girl in Lucknow…");
    expect(api.requests).toHaveLength(1);
    const [request] = api.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/v1/audio/transcriptions");
    expect(request.headers.authorization).toBe("Bearer sk-test-key");
    expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body).toContain('name="model"\r\n\r\nwhisper-large\r\n');
    expect(request.body).toContain('name="language"\r\n\r\nhi\r\n');
    expect(request.body).toContain('name="response_format"\r\n\r\njson\r\n');
    const fields = multipartFields(request.headers["content-type"], Buffer.from(request.body, "utf8"));
    expect(Object.keys(fields).sort()).toEqual(["file", "language", "model", "response_format"]);
    expect(fields.file.filename).toBe("answer.ogg");
    expect(fields.file.contentType).toBe("audio/ogg");
    expect(fields.file.value.equals(audio)).toBe(true);
  });

  it("sends binary audio byte for byte", async () => {
    // startFakeApi records bodies as UTF-8 text, which cannot hold arbitrary bytes: a raw server here.
    let received: { contentType?: string; body: Buffer } | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received = { contentType: req.headers["content-type"], body: Buffer.concat(chunks) };
        sendJson(res, 200, { text: "hello" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const audio = Buffer.alloc(70_000);
    for (let i = 0; i < audio.length; i++) audio[i] = (i * 7919 + (i >> 8)) & 0xff; // every byte value, CR/LF and "--" included

    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await transcriberFor(url).transcribe({ audio, contentType: "audio/webm;codecs=opus", language: "en" })).toBe(
      "hello",
    );
    const fields = multipartFields(received!.contentType, received!.body);
    expect(fields.file).toMatchObject({ filename: "answer.webm", contentType: "audio/webm" });
    expect(fields.file.value.length).toBe(audio.length);
    expect(fields.file.value.equals(audio)).toBe(true);
    expect(fields.language.value.toString()).toBe("en");
  });

  it("reports an empty text as no transcript", async () => {
    const api = await fakeSpeechApi(200, { text: " \n " });
    expect(
      await transcriberFor(api.url).transcribe({ audio: Buffer.from("x"), contentType: "audio/mp4", language: "en" }),
    ).toBeNull();
  });

  it("treats a 4xx refusal as permanent, with the provider's message", async () => {
    const api = await fakeSpeechApi(400, { error: { message: "Invalid file format.", type: "invalid_request_error" } });
    const attempt = transcriberFor(api.url).transcribe({
      audio: Buffer.from("x"),
      contentType: "audio/webm",
      language: "en",
    });
    await expect(attempt).rejects.toBeInstanceOf(PermanentTranscriptionError);
    await expect(attempt).rejects.toThrow("transcription service answered 400: Invalid file format.");
  });

  it.each([503, 500, 429, 408])("treats %i as transient (the job retries)", async (status) => {
    const api = await fakeSpeechApi(status, { error: { message: "try later" } });
    const error = await transcriberFor(api.url)
      .transcribe({ audio: Buffer.from("x"), contentType: "audio/webm", language: "en" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentTranscriptionError);
    expect((error as Error).message).toBe(`transcription service answered ${status}: try later`);
  });

  it("treats an unreachable service as transient", async () => {
    const api = await fakeSpeechApi(200, { text: "unused" });
    await api.close();
    closers.length = 0;
    const error = await transcriberFor(api.url)
      .transcribe({ audio: Buffer.from("x"), contentType: "audio/webm", language: "en" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentTranscriptionError);
  });

  it("treats a 200 without a text as permanent (not an OpenAI-compatible service)", async () => {
    const api = await startFakeApi((_request, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html>login</html>");
    });
    closers.push(api.close);
    await expect(
      transcriberFor(api.url).transcribe({ audio: Buffer.from("x"), contentType: "audio/webm", language: "en" }),
    ).rejects.toBeInstanceOf(PermanentTranscriptionError);
  });

  it("names the file with the extension the service reads the format from", () => {
    expect(audioFilename("audio/webm;codecs=opus")).toBe("answer.webm");
    expect(audioFilename("audio/ogg")).toBe("answer.ogg");
    expect(audioFilename("audio/mp4")).toBe("answer.m4a");
    expect(audioFilename("audio/mpeg")).toBe("answer.mp3");
    expect(audioFilename("audio/wav")).toBe("answer.wav");
  });
});
