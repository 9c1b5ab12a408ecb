import { readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnStory } from "~/models/my-stories.server";
import { signCapability } from "~/services/tokens.server";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import {
  createAnswer,
  createGroup,
  createGroupInvitation,
  createSignedInUser,
  createStoryteller,
  createUser,
} from "../factories";
import { type ServedBuild, serveBuild } from "../serve-build";

// Decision 019: every form and upload on a capability page works from browsers
// without Fetch Metadata, sent through the real HTTP app with exactly the headers those browsers send
// (node:http adds none of its own but Host and Content-Length); real cross-site posts stay refused,
// and the session's own forms keep their protection.
const database = useTestDatabase();
const webm = readFileSync(path.resolve("tests/fixtures/recording-3s.webm")); // Chromium MediaRecorder, Opus, 3 s
let base = "";
let site: ServedBuild;

beforeAll(async () => {
  site = await serveBuild(database, { env: { DATA_DIR: path.join(os.tmpdir(), `heirloom-${database.name}`) } });
  base = site.base;
});
afterAll(() => site.close());

type Headers = Record<string, string>;
type Sent = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** Stands for this server's origin in the tables below (made before the server has a port). */
const OWN_ORIGIN = "(our origin)";

/** One request with these headers and no others. */
function send(method: string, target: string, given: Headers, body?: Buffer | string): Promise<Sent> {
  const headers = Object.fromEntries(
    Object.entries(given).map(([name, value]) => [name, value === OWN_ORIGIN ? base : value]),
  );
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(target, base), { method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const form = (fields: Record<string, string>) => ({
  type: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
/** A multipart body as a browser builds it from the page's file form. */
async function fileForm(fields: Record<string, string | Blob>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Blob) data.set(name, value, "answer.webm");
    else data.set(name, value);
  }
  const request = new Request("http://localhost/", { method: "POST", body: data });
  return {
    type: { "Content-Type": request.headers.get("content-type")! },
    body: Buffer.from(await request.arrayBuffer()),
  };
}
const tusMetadata = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");

/** How browsers that must be served post from our own pages. */
const ownPageBrowsers: [string, Headers][] = [
  // Referrer-Policy: no-referrer makes every browser post "Origin: null"; Safari before 16.4 adds no Fetch Metadata.
  ["Safari before 16.4 on a no-referrer page (Origin: null, no Sec-Fetch-*)", { Origin: "null" }],
  ["a browser sending neither Origin nor Sec-Fetch-*", {}],
  // What the pages now send (strict-origin): Safari before 16.4 posts our Origin.
  ["Safari before 16.4 on a strict-origin page (our Origin, no Sec-Fetch-*)", { Origin: OWN_ORIGIN }],
  [
    "a current browser on a no-referrer page",
    { Origin: "null", "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document" },
  ],
];
/** Posts made by another site's page. */
const crossSitePosts: [string, Headers][] = [
  ["an old browser on another site (foreign Origin)", { Origin: "https://evil.example" }],
  [
    "a current browser on another site (Sec-Fetch-Site: cross-site)",
    { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" },
  ],
  [
    "a current browser in another site's sandboxed frame (cross-site, Origin: null)",
    { Origin: "null", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" },
  ],
  [
    "a sibling subdomain (Sec-Fetch-Site: same-site)",
    { Origin: "https://other.example", "Sec-Fetch-Site": "same-site" },
  ],
];

async function sentPrompt(options: { answered?: boolean } = {}) {
  const owner = await createUser(database.db, { first_name: "Ravi" });
  const storyteller = await createStoryteller(database.db, {
    ownerId: owner.id,
    firstName: "Kamla",
    prompts: [{ text: "What was your first job?", sentAt: new Date() }],
  });
  const prompt = storyteller.prompts[0];
  if (options.answered) await createAnswer(database.db, { storytellerId: storyteller.id, promptId: prompt.id });
  const config = makeTestContext(database).config;
  return {
    storyteller,
    prompt,
    token: await signCapability(config, "record", prompt.id),
    unsubscribeToken: await signCapability(config, "unsubscribe", storyteller.id),
  };
}
const promptRow = (id: string) =>
  database.db.selectFrom("prompts").select(["opened_at", "skipped_at"]).where("id", "=", id).executeTakeFirstOrThrow();
const answersFor = (promptId: string) =>
  database.db.selectFrom("answers").select(["id", "is_private"]).where("prompt_id", "=", promptId).execute();
const outboxTo = (address: string) =>
  database.db.selectFrom("outbox_messages").select("id").where("to_address", "=", address).execute();
const unsubscribedAt = async (id: string) =>
  (
    await database.db
      .selectFrom("storytellers")
      .select("unsubscribed_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow()
  ).unsubscribed_at;

describe.each(ownPageBrowsers)("from %s", (_name, browser) => {
  it("the record page takes 'opened', Skip, and an answer as a plain file form", async () => {
    const opened = await sentPrompt();
    const openedPost = form({ intent: "opened" });
    const sentOpened = await send(
      "POST",
      `/record/${opened.token}`,
      { ...browser, ...openedPost.type },
      openedPost.body,
    );
    expect(sentOpened.status).toBe(200);
    expect((await promptRow(opened.prompt.id)).opened_at).not.toBeNull();

    const skipped = await sentPrompt();
    const skip = form({ intent: "skip", confirm: "on" });
    const sentSkip = await send("POST", `/record/${skipped.token}`, { ...browser, ...skip.type }, skip.body);
    expect(sentSkip.status).toBe(200);
    expect(sentSkip.text).toContain("You skipped this question.");
    expect((await promptRow(skipped.prompt.id)).skipped_at).not.toBeNull();

    const answered = await sentPrompt();
    const file = await fileForm({ audio: new Blob([webm], { type: "audio/webm" }), private: "on" });
    const sentFile = await send("POST", `/record/${answered.token}`, { ...browser, ...file.type }, file.body);
    expect(sentFile.status).toBe(200);
    expect(sentFile.text).toContain("Sent. Thank you.");
    expect(await answersFor(answered.prompt.id)).toEqual([{ id: expect.any(String), is_private: true }]);
  });

  it("the record page sends the answer to someone", async () => {
    const { token } = await sentPrompt({ answered: true });
    const address = `cousin-${Math.random().toString(36).slice(2)}@example.com`;
    const share = form({ intent: "send-to-someone", to: address });
    const sent = await send("POST", `/record/${token}`, { ...browser, ...share.type }, share.body);
    expect(sent.status).toBe(200);
    expect(sent.text).toContain(`Sent to ${address}.`);
    expect(await outboxTo(address)).toHaveLength(1);
  });

  it("the recorder's resumable upload (tus) is created, sent and becomes the answer", async () => {
    const { prompt, token } = await sentPrompt();
    const tus = { "Tus-Resumable": "1.0.0" };
    const created = await send("POST", "/uploads", {
      ...browser,
      ...tus,
      "Upload-Length": String(webm.length),
      "Upload-Metadata": tusMetadata({ token, private: "0" }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.location!;
    const sent = await send(
      "PATCH",
      location,
      { ...browser, ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      webm,
    );
    expect(sent.status).toBe(204);
    expect(await answersFor(prompt.id)).toEqual([{ id: sent.headers["heirloom-answer"], is_private: false }]);
  });

  it("the unsubscribe page's button works", async () => {
    const { storyteller, unsubscribeToken } = await sentPrompt();
    const sent = await send("POST", `/unsubscribe/${unsubscribeToken}`, {
      ...browser,
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("Unsubscribed successfully");
    expect(await unsubscribedAt(storyteller.id)).not.toBeNull();
  });
});

describe.each(crossSitePosts)("a post from %s", (_name, foreign) => {
  it("is refused on the record page and the upload endpoint, and changes nothing", async () => {
    const { prompt, token } = await sentPrompt({ answered: false });
    for (const fields of [{ intent: "opened" }, { intent: "skip", confirm: "on" }] as Record<string, string>[]) {
      const post = form(fields);
      const sent = await send("POST", `/record/${token}`, { ...foreign, ...post.type }, post.body);
      expect(sent.status).toBe(403);
      expect(sent.text).toContain("sent from another website");
    }
    const file = await fileForm({ audio: new Blob([webm], { type: "audio/webm" }) });
    expect((await send("POST", `/record/${token}`, { ...foreign, ...file.type }, file.body)).status).toBe(403);
    const created = await send("POST", "/uploads", {
      ...foreign,
      "Tus-Resumable": "1.0.0",
      "Upload-Length": String(webm.length),
      "Upload-Metadata": tusMetadata({ token }),
    });
    expect(created.status).toBe(403);
    expect(await promptRow(prompt.id)).toEqual({ opened_at: null, skipped_at: null });
    expect(await answersFor(prompt.id)).toEqual([]);

    // Nor does sending to someone go out.
    const answered = await sentPrompt({ answered: true });
    const share = form({ intent: "send-to-someone", to: "stranger@example.com" });
    expect((await send("POST", `/record/${answered.token}`, { ...foreign, ...share.type }, share.body)).status).toBe(
      403,
    );
    expect(await outboxTo("stranger@example.com")).toEqual([]);
  });

  it("cannot add bytes to someone's upload", async () => {
    const { prompt, token } = await sentPrompt();
    const tus = { "Tus-Resumable": "1.0.0" };
    const created = await send("POST", "/uploads", {
      ...tus,
      "Sec-Fetch-Site": "same-origin",
      "Upload-Length": String(webm.length),
      "Upload-Metadata": tusMetadata({ token }),
    });
    const patch = await send(
      "PATCH",
      created.headers.location!,
      { ...foreign, ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      webm,
    );
    expect(patch.status).toBe(403);
    expect(await answersFor(prompt.id)).toEqual([]);
  });
});

describe("signed-in forms keep their protection", () => {
  const oldSafariNoReferrer: Headers = { Origin: "null" };

  it("refuses Origin: null without Fetch Metadata on a dashboard form and a My Stories upload", async () => {
    const me = await createSignedInUser(makeTestContext(database));
    const markAll = form({ intent: "markAllRead" });
    const refused = await send(
      "POST",
      "/dashboard/notifications",
      { ...oldSafariNoReferrer, Cookie: me.cookie, ...markAll.type },
      markAll.body,
    );
    expect(refused.status).toBe(403);
    // The same post from our own page (our Origin) goes through.
    const accepted = await send(
      "POST",
      "/dashboard/notifications",
      { Origin: base, Cookie: me.cookie, ...markAll.type },
      markAll.body,
    );
    expect(accepted.status).toBe(302);

    const started = await startOwnStory(database.db, me, { title: "My first bicycle" });
    if (!started.ok) throw new Error("refused");
    const upload = (headers: Headers) =>
      send("POST", "/uploads", {
        ...headers,
        Cookie: me.cookie,
        "Tus-Resumable": "1.0.0",
        "Upload-Length": String(webm.length),
        // An empty token must not make a session upload look like a record link's.
        "Upload-Metadata": tusMetadata({ token: "", prompt: started.promptId }),
      });
    expect((await upload(oldSafariNoReferrer)).status).toBe(403);
    expect((await upload({})).status).toBe(201);
  });

  it("the invitation page (it needs the session): accepted from our own pages, refused with Origin: null", async () => {
    const owner = await createUser(database.db, { first_name: "Meera" });
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, nickname: "Dadi" });
    const group = await createGroup(database.db, { ownerId: owner.id, storytellerId: storyteller.id, name: "Circle" });
    const invite = async () => {
      const me = await createSignedInUser(makeTestContext(database));
      const row = await createGroupInvitation(database.db, { groupId: group.id, email: me.email, invitedBy: owner.id });
      return { me, token: await signCapability(makeTestContext(database).config, "group-invite", row.id) };
    };
    const accept = async (headers: Headers) => {
      const { me, token } = await invite();
      return send("POST", `/invitations/${token}`, {
        ...headers,
        Cookie: me.cookie,
        "Content-Type": "application/x-www-form-urlencoded",
      });
    };

    // The page's Referrer-Policy makes every browser, Safari before 16.4 too, post our Origin.
    const page = await send("GET", `/invitations/${(await invite()).token}`, {});
    expect(page.headers["referrer-policy"]).toBe("no-referrer, strict-origin");
    expect((await accept({ Origin: base })).status).toBe(302);
    expect((await accept({})).status).toBe(302);
    expect((await accept({ Origin: base, "Sec-Fetch-Site": "same-origin" })).status).toBe(302);
    // A session route: an opaque origin is not ours, whoever sends it.
    expect((await accept(oldSafariNoReferrer)).status).toBe(403);
    for (const [, foreign] of crossSitePosts) expect((await accept(foreign)).status).toBe(403);
  });
});
