import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Upload } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnStory } from "~/models/my-stories.server";
import { signCapability } from "~/services/tokens.server";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createSentEmail, createSignedInUser, createStoryteller } from "../factories";
import { type ServedBuild, serveBuild } from "../serve-build";

// My Stories' recordings arriving through the record page's resumable uploads (tus, server/uploads.ts):
// the upload names a prompt instead of a record token, and the session decides whether it may.
const database = useTestDatabase();
const webm = readFileSync(path.resolve("tests/fixtures/recording-3s.webm")); // Chromium MediaRecorder, Opus, 3 s
let base = "";
let site: ServedBuild;
let dataDir = "";

beforeAll(async () => {
  dataDir = path.join(os.tmpdir(), `heirloom-mystories-uploads-${database.name}`);
  site = await serveBuild(database, { env: { DATA_DIR: dataDir } });
  base = site.base;
});
afterAll(() => site.close());

const context = () => makeTestContext(database);
const answersFor = (promptId: string) =>
  database.db.selectFrom("answers").selectAll().where("prompt_id", "=", promptId).execute();
const pendingUploads = async () =>
  (await readdir(path.join(dataDir, "uploads")).catch(() => [] as string[])).filter((name) => !name.endsWith(".json"));
const metadataHeader = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");

/** The recorder's upload, as the browser makes it: tus in 2 KB chunks, the session cookie with it. */
function upload(metadata: Record<string, string>, cookie?: string) {
  return new Promise<string | null>((resolve, reject) => {
    new Upload(webm, {
      endpoint: `${base}/uploads`,
      chunkSize: 2048,
      metadata,
      headers: { "Sec-Fetch-Site": "same-origin", ...(cookie ? { Cookie: cookie } : {}) },
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader("Heirloom-Answer") ?? null),
      onError: reject,
    }).start();
  });
}
/** Only the creating request: what the server says to an upload it must refuse. */
const create = (metadata: Record<string, string>, cookie?: string) =>
  fetch(`${base}/uploads`, {
    method: "POST",
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Length": String(webm.length),
      "Upload-Metadata": metadataHeader(metadata),
      "Sec-Fetch-Site": "same-origin",
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });

async function myStory(title = "My first bicycle") {
  const me = await createSignedInUser(context());
  const started = await startOwnStory(database.db, me, { title });
  if (!started.ok) throw new Error("refused");
  return { me, promptId: started.promptId };
}

describe("uploads for My Stories", () => {
  it("take a recording of my own story, kept private as asked", async () => {
    const { me, promptId } = await myStory();
    const answerId = await upload({ prompt: promptId, private: "1" }, me.cookie);
    const [answer] = await answersFor(promptId);
    expect(answer).toMatchObject({
      id: answerId,
      is_private: true,
      content_type: "audio/webm",
      recorded_for_email: me.email,
    });
    expect(answer.upload_id).not.toBeNull();
    expect(await pendingUploads()).toEqual([]);
  });

  it("take my answer to a question sent to my address, and its asker is told", async () => {
    const me = await createSignedInUser(context());
    const ravi = await createSignedInUser(context(), { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, {
      ownerId: ravi.id,
      email: me.email,
      prompts: [{ text: "Tell me about your village.", sentAt: new Date() }],
    });
    const promptId = storyteller.prompts[0].id;
    await createSentEmail(database.db, { promptId, to: me.email });
    await upload({ prompt: promptId, private: "0" }, me.cookie);
    expect(await answersFor(promptId)).toHaveLength(1);
    const notes = await database.db.selectFrom("notifications").select("type").where("user_id", "=", ravi.id).execute();
    expect(notes.map((n) => n.type)).toEqual(["uploaded"]);
  });

  it("are 404 for someone else's prompt, a prompt that does not exist, and without a session: nothing kept", async () => {
    const { me, promptId } = await myStory();
    const stranger = await createSignedInUser(context());
    // Ravi's Storyteller is someone else: Ravi can send a record link, but not upload as her here.
    const ravi = await createSignedInUser(context(), { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, {
      ownerId: ravi.id,
      prompts: [{ text: "Tell me about your village.", sentAt: new Date() }],
    });
    const theirs = storyteller.prompts[0].id;
    for (const [metadata, cookie] of [
      [{ prompt: promptId }, stranger.cookie],
      [{ prompt: promptId }, undefined],
      [{ prompt: theirs }, ravi.cookie],
      [{ prompt: theirs }, me.cookie],
      [{ prompt: "00000000-0000-4000-8000-000000000000" }, me.cookie],
      [{ prompt: "not-a-uuid" }, me.cookie],
    ] as const) {
      const response = await create(metadata, cookie);
      expect(response.status, JSON.stringify(metadata)).toBe(404);
      expect(await response.text()).toBe("record.notFound");
    }
    expect(await answersFor(promptId)).toEqual([]);
    expect(await answersFor(theirs)).toEqual([]);
    expect(await pendingUploads()).toEqual([]);
  });

  it("leave the record link's uploads as they were: the token decides, whoever is signed in", async () => {
    const { me } = await myStory();
    const ravi = await createSignedInUser(context(), { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, {
      ownerId: ravi.id,
      prompts: [{ text: "Tell me about your village.", sentAt: new Date() }],
    });
    const promptId = storyteller.prompts[0].id;
    const token = await signCapability(context().config, "record", promptId);
    await upload({ token, private: "0" }, me.cookie);
    expect(await answersFor(promptId)).toHaveLength(1);
  });
});
