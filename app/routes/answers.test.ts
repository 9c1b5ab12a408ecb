import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCapability } from "~/services/tokens.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { useTestDatabase } from "../../tests/db";
import {
  createAnswer,
  createGroup,
  createPrompt,
  createShareLink,
  createSignedInUser,
  createStoryteller,
} from "../../tests/factories";
import { jobsFor } from "../../tests/jobs";
import { action as viewAction, loader as viewLoader } from "./dashboard.recipient.$id/route";
import { loader as mediaLoader } from "./media.answer.$answerId";
import { headers as sharePageHeaders, loader as sharePageLoader } from "./s.$token";
import { loader as shareAudioLoader } from "./s.$token.audio";

const database = useTestDatabase();
const context = () => makeTestContext(database);
let recording: Uint8Array;
beforeAll(async () => {
  recording = new Uint8Array(await readFile(path.join(__dirname, "../../tests/fixtures/recording-3s.webm")));
});
afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

/** A user with a session; `jar` is what their browser would send. */
async function signedInUser(firstName: string) {
  const user = await createSignedInUser(context(), { first_name: firstName });
  const jar = new CookieJar();
  jar.store(new Response(null, { headers: { "Set-Cookie": user.setCookie } }));
  return { id: user.id, jar };
}

type Family = Awaited<ReturnType<typeof family>>;

/** An owner, a collaborator in the Storyteller's group, and a stranger; the Storyteller has no answers yet. */
async function family(storyteller: { firstName?: string; unsubscribed?: boolean } = {}) {
  const owner = await signedInUser("Priya");
  const collaborator = await signedInUser("Vikram");
  const stranger = await signedInUser("Mallory");
  const { id: storytellerId } = await createStoryteller(database.db, {
    ownerId: owner.id,
    firstName: storyteller.firstName,
    unsubscribedAt: storyteller.unsubscribed ? new Date() : null,
    prompts: [],
  });
  await createGroup(database.db, { ownerId: owner.id, storytellerId, collaborators: [collaborator.id] });
  return { owner, collaborator, stranger, storytellerId };
}

/** A sent prompt with a stored answer (the fixture recording, and optionally an M4A "playable copy"). */
async function answer(
  storytellerId: string,
  options: { text?: string; isPrivate?: boolean; playable?: boolean; transcript?: string } = {},
) {
  const prompt = await createPrompt(database.db, {
    storytellerId,
    text: options.text ?? "What was your first home like?",
    sentAt: new Date(),
  });
  const row = await createAnswer(database.db, {
    storytellerId,
    promptId: prompt.id,
    storage: context().storage,
    audio: recording,
    contentType: "audio/webm",
    isPrivate: options.isPrivate,
    playable: options.playable
      ? { audio: new TextEncoder().encode("pretend this is AAC audio, 48 bytes long.......") }
      : undefined,
    transcript: options.transcript,
    transcriptStatus: options.transcript ? "done" : "pending",
  });
  return { id: row.id, promptId: prompt.id, key: row.storage_key, playableKey: row.playable_storage_key };
}

const get = (jar: CookieJar | null, url: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost:3000${url}`, { headers: { ...(jar ? { Cookie: jar.header() } : {}), ...headers } });
const post = (jar: CookieJar, storytellerId: string, fields: Record<string, string>) =>
  new Request(`http://localhost:3000/dashboard/recipient/${storytellerId}?sent=true`, {
    method: "POST",
    headers: {
      Cookie: jar.header(),
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
    },
    body: new URLSearchParams(fields),
  });

/** A loader or action's outcome as a status: a returned or thrown Response, or 200 for data. */
async function outcome(run: () => Promise<unknown>) {
  try {
    const result = await run();
    return result instanceof Response ? result : ({ status: 200, data: result } as const);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
const statusOf = async (run: () => Promise<unknown>) => (await outcome(run)).status;

const listen = (jar: CookieJar | null, answerId: string, headers: Record<string, string> = {}) =>
  outcome(() =>
    mediaLoader({
      request: get(jar, `/media/answer/${answerId}`, headers),
      context: context(),
      params: { answerId },
      ...routeArgs,
    }),
  ) as Promise<Response>;
const download = (jar: CookieJar | null, answerId: string) =>
  outcome(() =>
    mediaLoader({
      request: get(jar, `/media/answer/${answerId}?download=1`),
      context: context(),
      params: { answerId },
      ...routeArgs,
    }),
  ) as Promise<Response>;
const act = (jar: CookieJar, storytellerId: string, fields: Record<string, string>) =>
  outcome(() =>
    viewAction({
      request: post(jar, storytellerId, fields),
      context: context(),
      params: { id: storytellerId },
      ...routeArgs,
    }),
  );

/** What a loader returned with `data(value, init)`. */
function unwrap<T>(result: unknown) {
  const { data, init } = result as { data: T; init: ResponseInit | null };
  return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
}

async function sharePage(token: string) {
  return unwrap<{ kind: string; title: string; prompt?: string; firstName?: string; audioUrl?: string }>(
    await sharePageLoader({
      request: get(null, `/s/${token}?lng=en`),
      context: context(),
      params: { token },
      ...routeArgs,
    }),
  );
}
const shareAudio = (token: string, headers: Record<string, string> = {}) =>
  outcome(() =>
    shareAudioLoader({
      request: get(null, `/s/${token}/audio`, headers),
      context: context(),
      params: { token },
      ...routeArgs,
    }),
  ) as Promise<Response>;

async function answerState(a: { id: string; promptId: string }) {
  const [row, prompt, links, deliveries] = await Promise.all([
    database.db.selectFrom("answers").select("id").where("id", "=", a.id).executeTakeFirst(),
    database.db
      .selectFrom("prompts")
      .select("rerecord_requested_at")
      .where("id", "=", a.promptId)
      .executeTakeFirstOrThrow(),
    database.db.selectFrom("share_links").select(["id", "revoked_at"]).where("answer_id", "=", a.id).execute(),
    database.db.selectFrom("deliveries").select(["purpose", "status"]).where("prompt_id", "=", a.promptId).execute(),
  ]);
  return { exists: Boolean(row), rerecordRequested: Boolean(prompt.rerecord_requested_at), links, deliveries };
}

function tamper(token: string) {
  const [header, payload, signature] = token.split(".");
  const i = Math.floor(signature.length / 2);
  return [header, payload, signature.slice(0, i) + (signature[i] === "A" ? "B" : "A") + signature.slice(i + 1)].join(
    ".",
  );
}

function expectCapabilityHeaders(headers: Headers) {
  expect(headers.get("Referrer-Policy")).toBe("no-referrer, strict-origin");
  expect(headers.get("Cache-Control")).toBe("no-store");
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

describe("authorization matrix: who may do what with an answer", () => {
  type Role = "owner" | "collaborator" | "stranger";
  type Action = "listen" | "download" | "share" | "stop sharing" | "delete" | "re-record";
  const allowed: Record<Role, Record<Action, number>> = {
    owner: { listen: 200, download: 200, share: 302, "stop sharing": 302, delete: 302, "re-record": 302 },
    collaborator: { listen: 200, download: 200, share: 302, "stop sharing": 302, delete: 404, "re-record": 404 },
    stranger: { listen: 404, download: 404, share: 404, "stop sharing": 404, delete: 404, "re-record": 404 },
  };
  const run: Record<Action, (f: Family, jar: CookieJar, a: { id: string }) => Promise<number>> = {
    listen: async (_f, jar, a) => (await listen(jar, a.id)).status,
    download: async (_f, jar, a) => (await download(jar, a.id)).status,
    share: (f, jar, a) =>
      statusOf(() =>
        viewAction({
          request: post(jar, f.storytellerId, { intent: "answer-share", answerId: a.id }),
          context: context(),
          params: { id: f.storytellerId },
          ...routeArgs,
        }),
      ),
    "stop sharing": (f, jar, a) =>
      statusOf(() =>
        viewAction({
          request: post(jar, f.storytellerId, { intent: "answer-unshare", answerId: a.id }),
          context: context(),
          params: { id: f.storytellerId },
          ...routeArgs,
        }),
      ),
    delete: (f, jar, a) =>
      statusOf(() =>
        viewAction({
          request: post(jar, f.storytellerId, { intent: "answer-delete", answerId: a.id, confirm: "on" }),
          context: context(),
          params: { id: f.storytellerId },
          ...routeArgs,
        }),
      ),
    "re-record": (f, jar, a) =>
      statusOf(() =>
        viewAction({
          request: post(jar, f.storytellerId, { intent: "answer-rerecord", answerId: a.id, confirm: "on" }),
          context: context(),
          params: { id: f.storytellerId },
          ...routeArgs,
        }),
      ),
  };

  for (const role of Object.keys(allowed) as Role[]) {
    for (const action of Object.keys(allowed[role]) as Action[]) {
      const expected = allowed[role][action];
      it(`${role} × ${action} → ${expected}`, async () => {
        const f = await family();
        const a = await answer(f.storytellerId);
        if (action === "stop sharing") await createShareLink(database.db, { answerId: a.id, createdBy: f.owner.id });
        const before = await answerState(a);
        expect(await run[action](f, f[role].jar, a)).toBe(expected);
        const after = await answerState(a);
        if (expected === 404) {
          // Refused means nothing changed.
          expect(after).toEqual(before);
        } else if (action === "share") {
          expect(after.links).toHaveLength(1);
        } else if (action === "stop sharing") {
          expect(after.links.every((link) => link.revoked_at)).toBe(true);
        } else if (action === "delete") {
          expect(after.exists).toBe(false);
        } else if (action === "re-record") {
          expect(after).toMatchObject({
            exists: true,
            rerecordRequested: true,
            deliveries: [{ purpose: "resend", status: "pending" }],
          });
        }
      });
    }
  }

  it("signed out: the audio is a 404 (never a sign-in page), and actions send to sign-in", async () => {
    const f = await family();
    const a = await answer(f.storytellerId);
    expect((await listen(null, a.id)).status).toBe(404);
    expect((await download(null, a.id)).status).toBe(404);
    const anonymous = new CookieJar();
    const response = await act(anonymous, f.storytellerId, { intent: "answer-delete", answerId: a.id, confirm: "on" });
    expect(response.status).toBe(302);
    expect((response as Response).headers.get("Location")).toMatch(/^\/auth\/login\?/);
    expect((await answerState(a)).exists).toBe(true);
  });

  it("an answer id under another Storyteller's address, or not an id at all, is a 404", async () => {
    const f = await family();
    const mine = await family();
    const theirs = await answer(f.storytellerId);
    // The owner of another Storyteller posts their own Storyteller's address with this answer's id.
    for (const intent of ["answer-share", "answer-unshare", "answer-delete", "answer-rerecord"]) {
      expect([
        intent,
        (await act(mine.owner.jar, mine.storytellerId, { intent, answerId: theirs.id, confirm: "on" })).status,
      ]).toEqual([intent, 404]);
    }
    expect((await listen(f.owner.jar, "not-a-uuid")).status).toBe(404);
    expect((await listen(f.owner.jar, randomUUID())).status).toBe(404);
    expect((await answerState(theirs)).exists).toBe(true);
  });

  it("a private answer: no one hears, downloads, shares, deletes or re-records it here, the owner included", async () => {
    const f = await family();
    const a = await answer(f.storytellerId, { isPrivate: true, transcript: "Only for me" });
    for (const role of ["owner", "collaborator"] as const) {
      expect((await listen(f[role].jar, a.id)).status).toBe(404);
      expect((await download(f[role].jar, a.id)).status).toBe(404);
      expect((await act(f[role].jar, f.storytellerId, { intent: "answer-share", answerId: a.id })).status).toBe(404);
    }
    expect(
      (await act(f.owner.jar, f.storytellerId, { intent: "answer-delete", answerId: a.id, confirm: "on" })).status,
    ).toBe(404);
    expect(
      (await act(f.owner.jar, f.storytellerId, { intent: "answer-rerecord", answerId: a.id, confirm: "on" })).status,
    ).toBe(404);
    expect(await answerState(a)).toMatchObject({ exists: true, rerecordRequested: false, links: [] });

    // The Sent tab says "Answered (private)" and carries neither its words nor a link.
    const view = await viewLoader({
      request: get(f.owner.jar, `/dashboard/recipient/${f.storytellerId}?sent=true`),
      context: context(),
      params: { id: f.storytellerId },
      ...routeArgs,
    });
    const sent = view.sent.find((p) => p.answer_id === a.id)!;
    expect(sent).toMatchObject({ is_private: true, transcript: null, share_url: null });
    expect(JSON.stringify(view)).not.toContain("Only for me");
  });

  it("delete and re-record need the confirmation box", async () => {
    const f = await family();
    const a = await answer(f.storytellerId);
    for (const intent of ["answer-delete", "answer-rerecord"])
      expect((await act(f.owner.jar, f.storytellerId, { intent, answerId: a.id })).status).toBe(400);
    expect(await answerState(a)).toMatchObject({ exists: true, rerecordRequested: false, deliveries: [] });
  });
});

describe("listening and downloading", () => {
  it("streams with seeking: a Range request gets 206 and just those bytes", async () => {
    const f = await family();
    const a = await answer(f.storytellerId);
    const whole = await listen(f.collaborator.jar, a.id);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("audio/webm");
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(whole.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(whole.headers.get("Cache-Control")).toBe("private, no-store");
    expect(whole.headers.get("Content-Disposition")).toMatch(/^inline; /);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(recording);

    const part = await listen(f.owner.jar, a.id, { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 100-199/${recording.byteLength}`);
    expect(part.headers.get("Content-Length")).toBe("100");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(recording.subarray(100, 200));

    const past = await listen(f.owner.jar, a.id, { Range: `bytes=${recording.byteLength}-` });
    expect(past.status).toBe(416);
  });

  it("downloads as an attachment named after the Storyteller and the question", async () => {
    const f = await family();
    const a = await answer(f.storytellerId, { text: "What was your first home like?" });
    const response = await download(f.owner.jar, a.id);
    expect(response.status).toBe(200);
    const disposition = response.headers.get("Content-Disposition")!;
    expect(disposition).toMatch(
      /^attachment; filename="Kamla _ What was your first home like\.webm"; filename\*=UTF-8''/,
    );
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1])).toBe(
      "Kamla – What was your first home like.webm",
    );
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    await response.body?.cancel();
  });

  it("plays and downloads the playable copy (M4A) when there is one; Hindi names stay readable", async () => {
    const f = await family({ firstName: "कमला" });
    const a = await answer(f.storytellerId, { text: "आपका पहला घर कैसा था?", playable: true });
    const played = await listen(f.owner.jar, a.id);
    expect(played.headers.get("Content-Type")).toBe("audio/mp4");
    expect(await played.text()).toContain("pretend this is AAC");
    const downloaded = await download(f.collaborator.jar, a.id);
    const disposition = downloaded.headers.get("Content-Disposition")!;
    // Nothing readable survives in ASCII, so the fallback is neutral; filename* carries the real name.
    expect(disposition).toMatch(/^attachment; filename="download\.m4a"; /);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1])).toBe("कमला – आपका पहला घर कैसा था.m4a");
    await downloaded.body?.cancel();
  });

  it("shows each answer's transcript state and share link in the Sent tab", async () => {
    const f = await family();
    const transcribed = await answer(f.storytellerId, { transcript: "We lived by the river." });
    const pending = await answer(f.storytellerId);
    await act(f.owner.jar, f.storytellerId, { intent: "answer-share", answerId: transcribed.id });
    const view = await viewLoader({
      request: get(f.collaborator.jar, `/dashboard/recipient/${f.storytellerId}?sent=true`),
      context: context(),
      params: { id: f.storytellerId },
      ...routeArgs,
    });
    expect(view.canManage).toBe(false);
    const byAnswer = (id: string) => view.sent.find((p) => p.answer_id === id)!;
    expect(byAnswer(transcribed.id)).toMatchObject({
      transcript: "We lived by the river.",
      transcript_status: "done",
      share_url: expect.stringMatching(/^http:\/\/localhost:3000\/s\/[\w-]+\.[\w-]+\.[\w-]+$/),
    });
    expect(byAnswer(pending.id)).toMatchObject({ transcript: null, transcript_status: "pending", share_url: null });
    expect(byAnswer(transcribed.id)).not.toHaveProperty("share_link_id");
  });
});

describe("delete", () => {
  it("removes the row, then the original and the playable copy from storage; share links stop working", async () => {
    const f = await family();
    const a = await answer(f.storytellerId, { playable: true });
    const shared = (await act(f.collaborator.jar, f.storytellerId, {
      intent: "answer-share",
      answerId: a.id,
      js: "1",
    })) as { data: { data: { shareUrl: string } } };
    const token = tokenOf(shared.data.data.shareUrl);
    expect((await sharePage(token)).status).toBe(200);
    const storage = context().storage;
    expect(await storage.head(a.key!)).not.toBeNull();
    expect(await storage.head(a.playableKey!)).not.toBeNull();

    const response = (await act(f.owner.jar, f.storytellerId, {
      intent: "answer-delete",
      answerId: a.id,
      confirm: "on",
    })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/dashboard/recipient/${f.storytellerId}?sent=true`);
    expect(response.headers.get("Set-Cookie")).toContain("toast=");
    expect(await answerState(a)).toMatchObject({ exists: false, links: [] });
    expect(await storage.head(a.key!)).toBeNull();
    expect(await storage.head(a.playableKey!)).toBeNull();
    expect((await sharePage(token)).status).toBe(404);
    expect((await listen(f.owner.jar, a.id)).status).toBe(404);

    // The prompt stays, as "Not Answered".
    const view = await viewLoader({
      request: get(f.owner.jar, "/x?sent=true"),
      context: context(),
      params: { id: f.storytellerId },
      ...routeArgs,
    });
    expect(view.sent.find((p) => p.id === a.promptId)).toMatchObject({ answer_id: null });
    // Deleting again: nothing there any more.
    expect(
      (await act(f.owner.jar, f.storytellerId, { intent: "answer-delete", answerId: a.id, confirm: "on" })).status,
    ).toBe(404);
  });
});

describe("re-record", () => {
  it("reopens the prompt and queues its link again: a resend ledger row and a send job due now", async () => {
    const f = await family();
    const a = await answer(f.storytellerId);
    const response = (await act(f.owner.jar, f.storytellerId, {
      intent: "answer-rerecord",
      answerId: a.id,
      confirm: "on",
    })) as Response;
    expect(response.status).toBe(302);
    const prompt = await database.db
      .selectFrom("prompts")
      .select("rerecord_requested_at")
      .where("id", "=", a.promptId)
      .executeTakeFirstOrThrow();
    expect(prompt.rerecord_requested_at).toBeInstanceOf(Date);
    const delivery = await database.db
      .selectFrom("deliveries")
      .select(["id", "channel", "purpose", "status"])
      .where("prompt_id", "=", a.promptId)
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ channel: "email", purpose: "resend", status: "pending" });
    const jobs = (await jobsFor(database.db, "delivery__send")).filter((job) => job.payload.deliveryId === delivery.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      key: `delivery:${delivery.id}`,
      payload: { deliveryId: delivery.id, sendNow: true },
    });
    // The answer stays until the new one is in.
    expect((await answerState(a)).exists).toBe(true);
  });

  it("refuses, changing nothing, when the Storyteller can't receive", async () => {
    const f = await family({ unsubscribed: true });
    const a = await answer(f.storytellerId);
    const response = (await act(f.owner.jar, f.storytellerId, {
      intent: "answer-rerecord",
      answerId: a.id,
      confirm: "on",
    })) as Response;
    expect(response.status).toBe(302);
    expect(await answerState(a)).toMatchObject({ rerecordRequested: false, deliveries: [] });
  });
});

describe("share links and the /s/{token} page", () => {
  it("Share makes one link (reused after), the page shows the question, first name and words only, and the audio seeks", async () => {
    const f = await family();
    const a = await answer(f.storytellerId, { transcript: "Secret-ish words" });
    expect((await act(f.owner.jar, f.storytellerId, { intent: "answer-share", answerId: a.id })).status).toBe(302);
    const again = (await act(f.collaborator.jar, f.storytellerId, {
      intent: "answer-share",
      answerId: a.id,
      js: "1",
    })) as { data: { data: { shareUrl: string } } };
    expect((await answerState(a)).links).toHaveLength(1);
    const url = again.data.data.shareUrl;
    expect(url).toMatch(/^http:\/\/localhost:3000\/s\//);
    const token = tokenOf(url);
    // The token names the link row, nothing else.
    const [link] = (await answerState(a)).links;
    expect(JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString())).toMatchObject({
      aud: "share",
      sub: link.id,
    });

    const page = await sharePage(token);
    expect(page.status).toBe(200);
    expect(page.data).toEqual({
      kind: "answer",
      title: "A story from Kamla · Heirloom",
      firstName: "Kamla",
      prompt: "What was your first home like?",
      audioUrl: `/s/${token}/audio`,
      // The words follow the voice on a shared link too, with their captions and island.
      captionsUrl: `/s/${token}/captions.vtt`,
      locale: "en",
      words: { status: "done", transcript: "Secret-ish words", segments: [], corrected: null, heardAgain: false },
      scripts: [expect.stringMatching(/^\/assets\/follow-words-[\w-]+\.js$/)],
    });
    expectCapabilityHeaders(page.headers);
    expectCapabilityHeaders(
      new Headers(
        sharePageHeaders({ loaderHeaders: page.headers } as Parameters<typeof sharePageHeaders>[0]) as HeadersInit,
      ),
    );

    const part = await shareAudio(token, { Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 0-9/${recording.byteLength}`);
    expectCapabilityHeaders(part.headers);
    expect(part.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(recording.subarray(0, 10));
  });

  it("Stop sharing: the page and the audio are 404s; sharing again makes a new link", async () => {
    const f = await family();
    const a = await answer(f.storytellerId);
    await act(f.owner.jar, f.storytellerId, { intent: "answer-share", answerId: a.id });
    const [first] = (await answerState(a)).links;
    const token = await signCapability(context().config, "share", first.id);
    expect((await sharePage(token)).status).toBe(200);
    expect((await act(f.collaborator.jar, f.storytellerId, { intent: "answer-unshare", answerId: a.id })).status).toBe(
      302,
    );
    const revoked = await sharePage(token);
    expect(revoked).toMatchObject({
      status: 404,
      data: { kind: "not-found", title: "Recording not found · Heirloom" },
    });
    expect(revoked.data).not.toHaveProperty("prompt");
    expectCapabilityHeaders(revoked.headers);
    const audio = await shareAudio(token);
    expect(audio.status).toBe(404);
    expectCapabilityHeaders(audio.headers);

    const shared = (await act(f.owner.jar, f.storytellerId, { intent: "answer-share", answerId: a.id, js: "1" })) as {
      data: { data: { shareUrl: string } };
    };
    const fresh = tokenOf(shared.data.data.shareUrl);
    expect(fresh).not.toBe(token);
    expect((await sharePage(fresh)).status).toBe(200);
    expect((await sharePage(token)).status).toBe(404);
  });

  it("a private answer's link, a tampered token, another purpose's token and junk are 404s", async () => {
    const f = await family();
    const a = await answer(f.storytellerId);
    const hidden = await answer(f.storytellerId, { isPrivate: true });
    const link = await createShareLink(database.db, { answerId: a.id });
    const privateLink = await createShareLink(database.db, { answerId: hidden.id });
    const good = await signCapability(context().config, "share", link.id);
    expect((await sharePage(good)).status).toBe(200);
    const otherSecret = await signCapability(
      { SESSION_SECRET: "a-completely-different-session-secret-0123456789" },
      "share",
      link.id,
    );
    const tokens = [
      await signCapability(context().config, "share", privateLink.id),
      tamper(good),
      await signCapability(context().config, "record", link.id),
      otherSecret,
      await signCapability(context().config, "share", randomUUID()),
      "not-a-token",
      link.id,
    ];
    for (const token of tokens) {
      const page = await sharePage(token);
      expect(page.status).toBe(404);
      expect(page.data.kind).toBe("not-found");
      expectCapabilityHeaders(page.headers);
      expect((await shareAudio(token)).status).toBe(404);
    }
  });
});
