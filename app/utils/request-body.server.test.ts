import { describe, expect, it } from "vitest";
import { receiveAnswerFile } from "~/services/answer-file-form.server";
import { MAX_FILE_NAME, MAX_FORM_BYTES, readForm, readMultipart } from "./request-body.server";

const statusOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
    return 200;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return thrown.status;
  }
};

const urlEncoded = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost:3000/contact-us", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
    duplex: "half",
  } as RequestInit);

describe("readForm", () => {
  it("reads a form's fields, Devanagari and all", async () => {
    const form = await readForm(urlEncoded(new URLSearchParams({ name: "कमला", message: "x".repeat(10_240) })));
    expect(form.get("name")).toBe("कमला");
    expect(String(form.get("message"))).toHaveLength(10_240);
  });

  it("refuses a body past the limit: by its Content-Length, or once it has streamed that far", async () => {
    const big = `message=${"x".repeat(MAX_FORM_BYTES)}`;
    expect(await statusOf(() => readForm(urlEncoded(big)))).toBe(413);
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    expect(await statusOf(() => readForm(urlEncoded(endless)))).toBe(413);
    expect(sent).toBeLessThan(MAX_FORM_BYTES + 4 * chunk.byteLength);
  });

  it("answers a body that is no form with a 400", async () => {
    const request = new Request("http://localhost:3000/x", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=nope" },
      body: "not multipart at all",
    });
    expect(await statusOf(() => readForm(request))).toBe(400);
  });
});

/** A multipart post with one "audio" file under `filename`, its header written by hand (as a client may). */
function fileNamed(filename: string) {
  const boundary = "----heirloom-test";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${filename}"\r\n` +
        `Content-Type: audio/wav\r\n\r\n`,
      "utf8",
    ),
    Buffer.from("RIFF....WAVE"),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Request("http://localhost:3000/record/x", {
    method: "POST",
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(body.length) },
    body,
  });
}

describe("readMultipart: a file's name", () => {
  const read = (filename: string) => readMultipart(fileNamed(filename), { fileFields: ["audio"], maxFileBytes: 1000 });

  it("takes an ordinary name, Devanagari too, up to the longest a file system keeps", async () => {
    for (const name of ["story.wav", "नानी की कहानी.wav", "x".repeat(MAX_FILE_NAME)]) {
      const body = await read(name);
      expect(body.ok, name.slice(0, 20)).toBe(true);
    }
  });

  it("tells a name with a NUL or other control character, or a name of 300 characters or 100 KB, from a broken body", async () => {
    for (const name of ["story\u0000.wav", "a\u0001b.wav", "x".repeat(300), "x".repeat(100_000)])
      expect(await read(name), JSON.stringify(name.slice(0, 12))).toEqual({ ok: false, problem: "badFileName" });
  });

  it("gives the record page its own message for it, not 'did not arrive whole'", async () => {
    const accept = async () => ({ ok: true as const });
    for (const name of ["story\u0000.wav", "x".repeat(100_000)]) {
      const outcome = await receiveAnswerFile(fileNamed(name), accept);
      expect(outcome).toMatchObject({ ok: false, error: "upload.badFileName", status: 400 });
    }
  });
});
