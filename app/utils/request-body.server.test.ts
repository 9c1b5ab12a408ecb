import { describe, expect, it } from "vitest";
import { MAX_FORM_BYTES, readForm } from "./request-body.server";

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
