import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Upload } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCapability } from "~/services/tokens.server";
import { silentWav } from "../audio-fixtures";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createStoryteller, createUser } from "../factories";
import { jobsFor } from "../jobs";
import { type ServedBuild, serveBuild } from "../serve-build";

// Answers arriving: resumable uploads (tus) and the plain form, through the real HTTP app.
const database = useTestDatabase();
const webm = readFileSync(path.resolve("tests/fixtures/recording-3s.webm")); // Chromium MediaRecorder, Opus, 3 s
let base = "";
let site: ServedBuild;
let dataDir = "";

beforeAll(async () => {
  dataDir = path.join(os.tmpdir(), `heirloom-uploads-${database.name}`);
  site = await serveBuild(database, { env: { DATA_DIR: dataDir } });
  base = site.base;
});
afterAll(() => site.close());

async function sentPrompt() {
  const owner = await createUser(database.db, { first_name: "Ravi" });
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
  const prompt = storyteller.prompts[0];
  await database.db.updateTable("prompts").set({ sent_at: new Date() }).where("id", "=", prompt.id).execute();
  const token = await signCapability(makeTestContext(database).config, "record", prompt.id);
  return { owner, storyteller, prompt, token };
}

const answersFor = (promptId: string) =>
  database.db.selectFrom("answers").selectAll().where("prompt_id", "=", promptId).execute();
// makeTestContext's local storage root (tests/context.ts).
const storedFiles = (promptId: string) =>
  readdir(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`, "answers", promptId)).catch(
    () => [] as string[],
  );
const pendingUploads = async () =>
  (await readdir(path.join(dataDir, "uploads")).catch(() => [] as string[])).filter((name) => !name.endsWith(".json"));

const metadataHeader = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");

/** tus by hand: create, then send `chunks` one PATCH each (so a test can stop between them). */
async function createUpload(token: string, length: number, extra: Record<string, string> = {}) {
  return fetch(`${base}/uploads`, {
    method: "POST",
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Length": String(length),
      "Upload-Metadata": metadataHeader({ token, ...extra }),
      "Sec-Fetch-Site": "same-origin",
    },
  });
}
async function patch(location: string, offset: number, chunk: Buffer) {
  return fetch(new URL(location, base), {
    method: "PATCH",
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Offset": String(offset),
      "Content-Type": "application/offset+octet-stream",
      "Sec-Fetch-Site": "same-origin",
    },
    body: new Uint8Array(chunk),
  });
}

describe("resumable uploads from the record page", () => {
  it("turns a finished upload into the answer, with its notification and jobs, and keeps nothing else", async () => {
    const { owner, prompt, token } = await sentPrompt();
    const answerId = await new Promise<string | null>((resolve, reject) => {
      const upload = new Upload(webm, {
        endpoint: `${base}/uploads`,
        chunkSize: 2048,
        metadata: { token, private: "0" },
        headers: { "Sec-Fetch-Site": "same-origin" },
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader("Heirloom-Answer") ?? null),
        onError: reject,
      });
      upload.start();
    });
    const [answer] = await answersFor(prompt.id);
    expect(answer).toMatchObject({
      id: answerId,
      content_type: "audio/webm",
      byte_size: String(webm.length),
      is_private: false,
    });
    expect(answer.duration_ms).toBeGreaterThan(2500);
    expect(answer.duration_ms).toBeLessThan(3500);
    expect(answer.storage_key).toMatch(new RegExp(`^answers/${prompt.id}/[0-9a-f-]{36}\\.webm$`));
    expect(await storedFiles(prompt.id)).toEqual([path.basename(answer.storage_key!)]);
    expect(await pendingUploads()).toEqual([]);
    const notes = await database.db
      .selectFrom("notifications")
      .select(["type", "prompt_id"])
      .where("user_id", "=", owner.id)
      .execute();
    expect(notes).toEqual([{ type: "uploaded", prompt_id: prompt.id }]);
    expect((await jobsFor(database.db, "answer__transcode")).map((j) => j.payload)).toContainEqual({
      answerId: answer.id,
    });
    expect((await jobsFor(database.db, "answer__transcribe")).map((j) => j.payload)).toContainEqual({
      answerId: answer.id,
    });
  });

  it("resumes after the connection drops mid-upload: one answer, from the whole file", async () => {
    const { prompt, token } = await sentPrompt();
    const created = await createUpload(token, webm.length, { private: "1" });
    expect(created.status).toBe(201);
    const location = created.headers.get("location")!;
    const half = Math.floor(webm.length / 2);
    expect((await patch(location, 0, webm.subarray(0, half))).status).toBe(204);
    // ...the connection drops here. Later the page asks where to go on:
    const head = await fetch(new URL(location, base), { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
    expect(head.headers.get("upload-offset")).toBe(String(half));
    const finished = await patch(location, half, webm.subarray(half));
    expect(finished.status).toBe(204);
    const answers = await answersFor(prompt.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ byte_size: String(webm.length), is_private: true });
  });

  const badFiles: [string, () => Buffer, string][] = [
    [
      "an HTML page renamed .webm",
      () => Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>".repeat(20)),
      "upload.notAudio",
    ],
    ["a six-minute recording", () => silentWav(6 * 60), "upload.tooLong"],
  ];
  for (const [name, file, reason] of badFiles) {
    it(`refuses ${name} with a clear reason, storing nothing`, async () => {
      const { prompt, token } = await sentPrompt();
      const body = file();
      const created = await createUpload(token, body.length);
      const response = await patch(created.headers.get("location")!, 0, body);
      expect(response.status).toBe(422);
      expect(await response.text()).toBe(reason);
      expect(await answersFor(prompt.id)).toEqual([]);
      expect(await storedFiles(prompt.id)).toEqual([]);
      expect(await pendingUploads()).toEqual([]);
    });
  }

  it("refuses an empty file and a 30 MB one before taking any bytes", async () => {
    const { prompt, token } = await sentPrompt();
    const empty = await createUpload(token, 0);
    expect(empty.status).toBe(422);
    expect(await empty.text()).toBe("upload.empty");
    const huge = await createUpload(token, 30 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(await answersFor(prompt.id)).toEqual([]);
    expect(await pendingUploads()).toEqual([]);
  });

  it("refuses a tampered token and a deleted prompt's token: 404, nothing created", async () => {
    const { prompt, token } = await sentPrompt();
    const tampered = token.slice(0, -3) + (token.endsWith("AAA") ? "BBB" : "AAA");
    expect((await createUpload(tampered, webm.length)).status).toBe(404);
    await database.db.deleteFrom("prompts").where("id", "=", prompt.id).execute();
    expect((await createUpload(token, webm.length)).status).toBe(404);
    expect(await pendingUploads()).toEqual([]);
  });

  it("keeps the first answer when a second upload arrives, and replaces it only when the owner asked for a new recording", async () => {
    const { prompt, token } = await sentPrompt();
    const send = async () => {
      const created = await createUpload(token, webm.length);
      return patch(created.headers.get("location")!, 0, webm);
    };
    await send();
    const [first] = await answersFor(prompt.id);
    await send();
    expect(await answersFor(prompt.id)).toEqual([first]);
    expect(await storedFiles(prompt.id)).toEqual([path.basename(first.storage_key!)]);

    await database.db
      .updateTable("prompts")
      .set({ rerecord_requested_at: new Date() })
      .where("id", "=", prompt.id)
      .execute();
    await send();
    const [second] = await answersFor(prompt.id);
    expect(second.id).not.toBe(first.id);
    expect(await storedFiles(prompt.id)).toEqual([path.basename(second.storage_key!)]);
    const reopened = await database.db
      .selectFrom("prompts")
      .select("rerecord_requested_at")
      .where("id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    expect(reopened.rerecord_requested_at).toBeNull();
  });
});

describe("answering without JavaScript", () => {
  const post = (token: string, form: FormData) =>
    fetch(`${base}/record/${token}`, { method: "POST", body: form, headers: { "Sec-Fetch-Site": "same-origin" } });

  it("takes a plain multipart form, then shows the answer", async () => {
    const { prompt, token } = await sentPrompt();
    const form = new FormData();
    form.set("audio", new Blob([webm], { type: "audio/webm" }), "answer.webm");
    form.set("private", "on");
    const response = await post(token, form);
    expect(response.status).toBe(200);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer, strict-origin");
    expect(await response.text()).toContain("Sent. Thank you.");
    const [answer] = await answersFor(prompt.id);
    expect(answer).toMatchObject({ is_private: true, content_type: "audio/webm" });
    const page = await (await fetch(`${base}/record/${token}`)).text();
    expect(page).toContain(`/record/${token}/audio`);
    expect(page).not.toContain("/assets/recorder-"); // nothing left to record
  });

  it("explains a bad file in plain words and stores nothing", async () => {
    const { prompt, token } = await sentPrompt();
    const form = new FormData();
    form.set(
      "audio",
      new Blob([Buffer.from("<html>not audio at all, just a web page</html>")], { type: "audio/webm" }),
      "answer.webm",
    );
    const response = await post(token, form);
    expect(response.status).toBe(422);
    expect(await response.text()).toContain("This file is not a voice recording we can use.");
    expect(await answersFor(prompt.id)).toEqual([]);
    expect(await storedFiles(prompt.id)).toEqual([]);
  });

  it("stops reading at a part it does not take, and keeps nothing", async () => {
    const { prompt, token } = await sentPrompt();
    const form = new FormData();
    form.set("junk", new Blob([Buffer.alloc(2 * 1024 * 1024)]), "junk.bin");
    form.set("audio", new Blob([webm], { type: "audio/webm" }), "answer.webm");
    const response = await post(token, form);
    expect(response.status).toBe(400);
    expect(await answersFor(prompt.id)).toEqual([]);
    const leftovers = (await readdir(os.tmpdir())).filter((name) => name.startsWith("heirloom-form-"));
    expect(leftovers).toEqual([]);
  });

  it("refuses a 30 MB post from its Content-Length, before reading it", async () => {
    const { prompt, token } = await sentPrompt();
    // Announce 30 MB, send only the first bytes: the answer must come without waiting for the rest.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${base}/record/${token}`, {
        method: "POST",
        headers: {
          "Content-Type": "multipart/form-data; boundary=x",
          "Content-Length": String(30 * 1024 * 1024),
          "Sec-Fetch-Site": "same-origin",
        },
      });
      request.on("response", (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          request.destroy(); // we never meant to send the rest
          resolve({ status: response.statusCode ?? 0, body: text });
        });
      });
      request.on("error", reject);
      request.write('--x\r\nContent-Disposition: form-data; name="audio"; filename="big.webm"\r\n\r\n');
    });
    expect(status).toBe(413);
    expect(body).toContain("This file is larger than 25 MB.");
    expect(await answersFor(prompt.id)).toEqual([]);
  });

  it("skips the question (and tells the asker), and records the first opening once", async () => {
    const { owner, prompt, token } = await sentPrompt();
    const form = (fields: Record<string, string>) =>
      fetch(`${base}/record/${token}`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { "Sec-Fetch-Site": "same-origin" },
      });
    await form({ intent: "opened" });
    await form({ intent: "opened" });
    const skipped = await form({ intent: "skip", confirm: "on" });
    expect(await skipped.text()).toContain("You skipped this question.");
    const row = await database.db
      .selectFrom("prompts")
      .select(["skipped_at", "opened_at"])
      .where("id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    expect(row.skipped_at).not.toBeNull();
    expect(row.opened_at).not.toBeNull();
    const notes = await database.db
      .selectFrom("notifications")
      .select("type")
      .where("user_id", "=", owner.id)
      .orderBy("created_at")
      .execute();
    expect(notes.map((n) => n.type)).toEqual(["listened", "skipped"]);
  });

  it("a GET of the page changes nothing (mail scanners open links)", async () => {
    const { prompt, token } = await sentPrompt();
    const page = await fetch(`${base}/record/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toMatch(/<script type="module" src="\/assets\/recorder-[\w-]+\.js"/);
    expect(html).not.toContain("/assets/entry.client"); // no React on this page
    const row = await database.db
      .selectFrom("prompts")
      .select("opened_at")
      .where("id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    expect(row.opened_at).toBeNull();
  });

  it("sends the Storyteller's own answer to someone they choose, by email, and never a private one", async () => {
    const { prompt, token } = await sentPrompt();
    const upload = new FormData();
    upload.set("audio", new Blob([webm], { type: "audio/webm" }), "answer.webm");
    await post(token, upload);
    const send = (to: string) =>
      fetch(`${base}/record/${token}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "send-to-someone", to }),
        headers: { "Sec-Fetch-Site": "same-origin" },
      });

    const bad = await send("not an address");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter an email address or a mobile number.");
    const sent = await send("cousin@example.com");
    expect(await sent.text()).toContain("Sent to cousin@example.com.");
    const [email] = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("to_address", "=", "cousin@example.com")
      .execute();
    expect(email.subject).toBe("Kamla shared a story with you");
    const shareUrl = email.text_body.match(/http:\/\/localhost:3000\/s\/\S+/)![0];
    const share = await fetch(`${base}${new URL(shareUrl).pathname}`);
    expect(share.status).toBe(200);

    await database.db.updateTable("answers").set({ is_private: true }).where("prompt_id", "=", prompt.id).execute();
    const refused = await send("aunt@example.com");
    expect(refused.status).toBe(400);
    expect(
      await database.db
        .selectFrom("outbox_messages")
        .select("id")
        .where("to_address", "=", "aunt@example.com")
        .execute(),
    ).toEqual([]);
  });
});
