import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getMyStories } from "~/models/my-stories.server";
import { silentWav } from "../../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { outcome, replyErrorsOf } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createSentEmail, createSignedInUser, createStoryteller } from "../../../tests/factories";
import { action as recordAction, loader as recordLoader } from "../dashboard.mystories_.record.$promptId/route";
import { action, loader } from "./route";

const database = useTestDatabase();
const context = () => makeTestContext(database);
// The recording page names the recorder's script: its source while developing (no build needed).
const devContext = () => makeTestContext(database, { NODE_ENV: "development" });
const webm = readFileSync(path.resolve("tests/fixtures/recording-3s.webm"));

afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

type Actor = { id: string; email: string; cookie: string };
const base = "http://localhost:3000";
const page = "/dashboard/mystories";

const get = (who: Actor, url: string) => new Request(`${base}${url}`, { headers: { Cookie: who.cookie } });
const postForm = (who: Actor, url: string, fields: Record<string, string>) =>
  new Request(`${base}${url}`, {
    method: "POST",
    headers: {
      Cookie: who.cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
    },
    body: new URLSearchParams(fields),
  });
/** A multipart post as a browser sends it (with its Content-Length). */
async function postFile(
  who: Actor,
  url: string,
  file: { bytes: Uint8Array; name: string; type: string },
  isPrivate = false,
) {
  const form = new FormData();
  form.set("audio", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  if (isPrivate) form.set("private", "on");
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return new Request(`${base}${url}`, {
    method: "POST",
    headers: {
      Cookie: who.cookie,
      "Content-Type": encoded.headers.get("content-type")!,
      "Content-Length": String(body.byteLength),
      "Sec-Fetch-Site": "same-origin",
    },
    body,
  });
}

const submit = (who: Actor, fields: Record<string, string>) =>
  outcome(() => action({ request: postForm(who, page, fields), context: context(), params: {}, ...routeArgs }));
const recordingPage = (who: Actor, promptId: string, query = "") =>
  outcome(() =>
    recordLoader({
      request: get(who, `${page}/record/${promptId}${query}`),
      context: devContext(),
      params: { promptId },
      ...routeArgs,
    }),
  );
const recordingPost = (who: Actor, promptId: string, request: Request) =>
  outcome(() => recordAction({ request, context: context(), params: { promptId }, ...routeArgs }));

const storyId = (location: string | null) => location?.match(/\/dashboard\/mystories\/record\/([0-9a-f-]{36})$/)?.[1];
const answerFor = (promptId: string) =>
  database.db.selectFrom("answers").selectAll().where("prompt_id", "=", promptId).executeTakeFirst();
const notesOf = (userId: string) =>
  database.db.selectFrom("notifications").select(["type", "prompt_id"]).where("user_id", "=", userId).execute();

/** Ravi asks a Storyteller whose address is `me`'s: one question sent and waiting. */
async function questionFor(me: { email: string }) {
  const ravi = await createSignedInUser(context(), { first_name: "Ravi" });
  const storyteller = await createStoryteller(database.db, {
    ownerId: ravi.id,
    email: me.email,
    prompts: [{ text: "Tell me about your village.", sentAt: new Date() }],
  });
  await createSentEmail(database.db, { promptId: storyteller.prompts[0].id, to: me.email });
  return { ravi, storyteller, promptId: storyteller.prompts[0].id };
}

describe("Record a story", () => {
  it("starts a story from a library question or a title of my own, and opens its recording page", async () => {
    const me = await createSignedInUser(context());
    const question = await database.db
      .selectFrom("library_prompts")
      .select(["id", "text_en"])
      .executeTakeFirstOrThrow();
    const fromLibrary = await submit(me, { intent: "record-library", libraryPromptId: String(question.id) });
    const ownTitle = await submit(me, { intent: "record-title", title: "  The day I met your grandfather " });
    expect(fromLibrary.status).toBe(302);
    expect(ownTitle.status).toBe(302);
    const stories = (await getMyStories(database.db, me)).drafts;
    expect(stories.map((s) => [s.id, s.question]).sort()).toEqual(
      [
        [storyId(fromLibrary.location), question.text_en],
        [storyId(ownTitle.location), "The day I met your grandfather"],
      ].sort(),
    );
  });

  it("says what is wrong beside the field: no question chosen, an unknown one, a title too short or too long", async () => {
    const me = await createSignedInUser(context());
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{ intent: "record-library" }, { libraryPromptId: ["stories:record.chooseQuestion"] }],
      [
        { intent: "record-library", libraryPromptId: "987654" },
        { libraryPromptId: ["stories:record.unknownQuestion"] },
      ],
      [{ intent: "record-title", title: "Me" }, { title: ["validation.tooShort"] }],
      [{ intent: "record-title", title: "x".repeat(301) }, { title: ["validation.tooLong"] }],
    ];
    for (const [fields, errors] of cases) {
      const refused = await submit(me, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(refused.data).toMatchObject({ form: fields.intent });
      expect(replyErrorsOf(refused.data)).toMatchObject(errors);
    }
    const mine = await getMyStories(database.db, me);
    expect([...mine.drafts, ...mine.stories]).toEqual([]);
  });
});

describe("the recording page", () => {
  it("records my own story without JavaScript: the file form, the same checks, then the page says it is in", async () => {
    const me = await createSignedInUser(context());
    const started = await submit(me, { intent: "record-title", title: "My first bicycle" });
    const promptId = storyId(started.location)!;

    const empty = await recordingPage(me, promptId);
    expect(empty.status).toBe(200);
    expect(empty.data).toMatchObject({ prompt: { own: true, answer: null }, submitted: false });
    expect(empty.data).toMatchObject({ scripts: ["/app/recorder/recorder.ts"] });

    const tooLong = await recordingPost(
      me,
      promptId,
      await postFile(me, `${page}/record/${promptId}`, { bytes: silentWav(6 * 60), name: "a.wav", type: "audio/wav" }),
    );
    expect(tooLong).toMatchObject({ status: 422, data: { error: "upload.tooLong" } });
    const notAudio = await recordingPost(
      me,
      promptId,
      await postFile(me, `${page}/record/${promptId}`, {
        bytes: new TextEncoder().encode("<html>not audio</html>".repeat(10)),
        name: "a.webm",
        type: "audio/webm",
      }),
    );
    expect(notAudio).toMatchObject({ status: 422, data: { error: "upload.notAudio" } });
    expect(await answerFor(promptId)).toBeUndefined();

    const sent = await recordingPost(
      me,
      promptId,
      await postFile(me, `${page}/record/${promptId}`, { bytes: webm, name: "a.webm", type: "audio/webm" }, true),
    );
    expect(sent).toMatchObject({ status: 302, location: `${page}/record/${promptId}?submitted=1` });
    const answer = await answerFor(promptId);
    expect(answer).toMatchObject({ is_private: true, content_type: "audio/webm", recorded_for_email: me.email });

    const done = await recordingPage(me, promptId, "?submitted=1");
    expect(done.data).toMatchObject({ submitted: true, scripts: [], prompt: { answer: { id: answer!.id } } });
    expect(await notesOf(me.id)).toEqual([]);
  });

  it("answers a question sent to my address as its record link would: the asker is told it was opened and answered", async () => {
    const me = await createSignedInUser(context());
    const { ravi, promptId } = await questionFor(me);
    expect((await recordingPage(me, promptId)).data).toMatchObject({ prompt: { own: false, askerName: "Ravi" } });
    await recordingPost(me, promptId, postForm(me, `${page}/record/${promptId}`, { intent: "opened" }));
    await recordingPost(me, promptId, postForm(me, `${page}/record/${promptId}`, { intent: "opened" }));
    const sent = await recordingPost(
      me,
      promptId,
      await postFile(me, `${page}/record/${promptId}`, { bytes: webm, name: "a.webm", type: "audio/webm" }),
    );
    expect(sent.status).toBe(302);
    expect((await notesOf(ravi.id)).map((n) => n.type)).toEqual(["listened", "uploaded"]);
    expect(await answerFor(promptId)).toMatchObject({ recorded_for_email: me.email, is_private: false });
  });

  it("is 404 for anyone else's prompt, and takes nothing from them", async () => {
    const me = await createSignedInUser(context());
    const stranger = await createSignedInUser(context());
    const { promptId, ravi } = await questionFor(me);
    const started = await submit(me, { intent: "record-title", title: "My first bicycle" });
    const mine = storyId(started.location)!;
    // Ravi asked the question, but it is addressed to me: he answers nothing from here.
    for (const [who, id] of [
      [stranger, mine],
      [stranger, promptId],
      [ravi, promptId],
      [ravi, mine],
    ] as const) {
      expect((await recordingPage(who, id)).status).toBe(404);
      const posted = await recordingPost(
        who,
        id,
        await postFile(who, `${page}/record/${id}`, { bytes: webm, name: "a.webm", type: "audio/webm" }),
      );
      expect(posted.status).toBe(404);
    }
    expect(await answerFor(mine)).toBeUndefined();
    expect(await answerFor(promptId)).toBeUndefined();
  });
});

describe("each story's private flag and Delete", () => {
  it("flip the flag with a plain form, for my stories only", async () => {
    const me = await createSignedInUser(context());
    const stranger = await createSignedInUser(context());
    const { storyteller, ravi } = await questionFor(me);
    const answer = await createAnswer(database.db, { storytellerId: storyteller.id, recordedForEmail: me.email });
    const isPrivate = async () => (await answerFor(answer.prompt_id))!.is_private;

    expect(await submit(stranger, { intent: "privacy", answerId: answer.id, private: "1" })).toMatchObject({
      status: 404,
    });
    // The asker neither: a private flag is the Storyteller's (docs/product.md, People).
    expect((await submit(ravi, { intent: "privacy", answerId: answer.id, private: "1" })).status).toBe(404);
    expect(await isPrivate()).toBe(false);

    expect(await submit(me, { intent: "privacy", answerId: answer.id, private: "1" })).toMatchObject({
      status: 302,
      location: page,
    });
    expect(await isPrivate()).toBe(true);
    expect((await submit(me, { intent: "privacy", answerId: answer.id, private: "0" })).status).toBe(302);
    expect(await isPrivate()).toBe(false);
  });

  it("delete needs the confirmation box, and only for my own stories and my answers", async () => {
    const me = await createSignedInUser(context());
    const stranger = await createSignedInUser(context());
    const { storyteller, ravi } = await questionFor(me);
    const answer = await createAnswer(database.db, { storytellerId: storyteller.id, recordedForEmail: me.email });

    expect((await submit(me, { intent: "delete", promptId: answer.prompt_id })).status).toBe(400);
    expect((await submit(ravi, { intent: "delete", promptId: answer.prompt_id, confirm: "on" })).status).toBe(404);
    expect((await submit(stranger, { intent: "delete", promptId: answer.prompt_id, confirm: "on" })).status).toBe(404);
    expect(await answerFor(answer.prompt_id)).toBeDefined();
    expect(await submit(me, { intent: "delete", promptId: answer.prompt_id, confirm: "on" })).toMatchObject({
      status: 302,
      location: page,
    });
    expect(await answerFor(answer.prompt_id)).toBeUndefined();
  });
});

describe("the page", () => {
  it("lists what is mine, with the library to pick from", async () => {
    const me = await createSignedInUser(context());
    const { promptId } = await questionFor(me);
    await submit(me, { intent: "record-title", title: "My first bicycle" });
    const data = (await outcome(() => loader({ request: get(me, page), context: context(), params: {}, ...routeArgs })))
      .data as Awaited<ReturnType<typeof loader>>;
    expect(data.questions.map((q) => q.id)).toEqual([promptId]);
    expect(data.drafts.map((d) => d.question)).toEqual(["My first bicycle"]);
    expect(data.library.length).toBeGreaterThanOrEqual(7);
  });
});
