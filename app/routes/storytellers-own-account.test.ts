import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keptAnswers } from "~/models/keepsake.server";
import { getSidebarCounts } from "~/models/sidebar.server";
import { recordMachineTranscript } from "~/models/transcript.server";
import { signCapability } from "~/services/tokens.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { outcome } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { createSentEmail, createSignedInUser, createStoryteller } from "../../tests/factories";
import { loader as myStoriesLoader } from "./dashboard.mystories/route";
import { loader as myStoriesRecordLoader } from "./dashboard.mystories_.record.$promptId/route";
import { action as editAction } from "./dashboard.recipient.$id_.edit/route";
import { loader as searchLoader } from "./dashboard.search";
import { loader as timelineLoader } from "./dashboard.timeline/route";
import { loader as mediaLoader } from "./media.answer.$answerId";
import { action as recordAction } from "./record.$token/route";
import { loader as responsesLoader } from "./responses.$recipientId";

/*
 * "The Storyteller's own account" (decisions 012, 063) is the one whose address her record link was
 * sent to. The owner may change her email afterwards (a typo, a new address, or someone else's):
 * an answer she then gives through the link she already has stays hers, on every surface.
 */

const database = useTestDatabase();
const context = () => makeTestContext(database);
const webm = readFileSync(path.resolve("tests/fixtures/recording-3s.webm"));

afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

type Actor = { id: string; email: string; cookie: string };
const base = "http://localhost:3000";
const get = (who: Actor, pathname: string, headers: Record<string, string> = {}) =>
  new Request(`${base}${pathname}`, { headers: { Cookie: who.cookie, ...headers } });

/** Her answer as the record page's plain form sends it (no account, no cookie), marked private. */
async function answerPrivately(token: string) {
  const form = new FormData();
  form.set("audio", new Blob([new Uint8Array(webm)], { type: "audio/webm" }), "answer.webm");
  form.set("private", "on");
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  const request = new Request(`${base}/record/${token}`, {
    method: "POST",
    headers: {
      "Content-Type": encoded.headers.get("content-type")!,
      "Content-Length": String(body.byteLength),
      "Sec-Fetch-Site": "same-origin",
    },
    body,
  });
  return outcome(() => recordAction({ request, context: context(), params: { token }, ...routeArgs }));
}

/** What each surface gives `who` of the Storyteller and her answer. */
async function surfaces(who: Actor, storytellerId: string, promptId: string, answerId: string) {
  const ctx = context();
  const audio = await outcome(() =>
    mediaLoader({
      request: get(who, `/media/answer/${answerId}`, { Range: "bytes=0-9" }),
      context: ctx,
      params: { answerId },
      ...routeArgs,
    }),
  );
  const myStories = await myStoriesLoader({
    request: get(who, "/dashboard/mystories"),
    context: ctx,
    ...routeArgs,
    params: {},
  });
  const question = await outcome(() =>
    myStoriesRecordLoader({
      request: get(who, `/dashboard/mystories/record/${promptId}`),
      context: ctx,
      params: { promptId },
      ...routeArgs,
    }),
  );
  const responses = await outcome(() =>
    responsesLoader({
      request: get(who, `/responses/${storytellerId}`),
      context: ctx,
      params: { recipientId: storytellerId },
      ...routeArgs,
    }),
  );
  const search = (await searchLoader({
    request: get(who, "/dashboard/search?q=mango"),
    context: ctx,
    params: {},
    ...routeArgs,
  })) as { hits: { id: string }[] };
  const timeline = await timelineLoader({
    request: get(who, "/dashboard/timeline"),
    context: ctx,
    params: {},
    ...routeArgs,
  });
  const responseData = responses.data as { stories?: { state: string; transcript: string | null }[] } | undefined;
  return {
    audio: audio.status,
    myStories: myStories.stories.filter((s) => s.id === answerId).map((s) => s.isPrivate),
    myQuestions: myStories.questions.map((q) => q.id),
    question: question.status,
    responses: responses.status === 200 ? responseData?.stories?.map((s) => [s.state, s.transcript]) : responses.status,
    search: search.hits.map((hit) => hit.id),
    timeline: timeline.months.flatMap((m) => m.items.map((item) => item.id)),
    export: ((await keptAnswers(database.db, who.id, { kind: "everything" })) ?? []).map((a) => a.id),
    sidebar: (await getSidebarCounts(database.db, who.id)).myStories,
  };
}

describe("a private answer after the owner changed the Storyteller's email", () => {
  it("stays with the account her record link was sent to: the new address's holder sees and hears nothing", async () => {
    const ctx = context();
    const owner = await createSignedInUser(ctx, { first_name: "Ravi" });
    const kamla = await createSignedInUser(ctx, { first_name: "Kamla" });
    const stranger = await createSignedInUser(ctx, { first_name: "Stranger" });
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      firstName: "Kamla",
      email: kamla.email,
      prompts: [{ text: "What grew in your garden?", sentAt: new Date() }],
    });
    const prompt = storyteller.prompts[0];
    await createSentEmail(database.db, { promptId: prompt.id, to: kamla.email });
    const token = await signCapability(ctx.config, "record", prompt.id);

    // The owner changes her address to someone else's.
    const edited = await outcome(() =>
      editAction({
        request: new Request(`${base}/dashboard/recipient/${storyteller.id}/edit`, {
          method: "POST",
          headers: {
            Cookie: owner.cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "Sec-Fetch-Site": "same-origin",
          },
          body: new URLSearchParams({
            intent: "update",
            nickname: "Nani",
            firstName: "Kamla",
            deliveryMethod: "email",
            email: stranger.email,
            timeZone: "Asia/Kolkata",
            language: "en",
            firstPromptDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
            frequency: "weekly",
          }),
        }),
        context: ctx,
        params: { id: storyteller.id },
        ...routeArgs,
      }),
    );
    expect(edited.status).toBe(302);

    // She answers, privately, through the link she already had.
    expect((await answerPrivately(token)).status).toBe(200);
    const answer = await database.db
      .selectFrom("answers")
      .select(["id", "storage_key"])
      .where("prompt_id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    await recordMachineTranscript(database.db, {
      answerId: answer.id,
      storageKey: answer.storage_key!,
      text: "The mango tree my father planted.",
      segments: null,
    });

    expect(await surfaces(stranger, storyteller.id, prompt.id, answer.id)).toEqual({
      audio: 404,
      myStories: [],
      myQuestions: [],
      question: 404,
      responses: 404,
      search: [],
      timeline: [],
      export: [],
      sidebar: 0,
    });
    expect(await surfaces(kamla, storyteller.id, prompt.id, answer.id)).toEqual({
      audio: 206,
      myStories: [true],
      myQuestions: [],
      question: 200,
      responses: [["answered", "The mango tree my father planted."]],
      search: [answer.id],
      timeline: [answer.id],
      export: [answer.id],
      sidebar: 1,
    });
    // The family hears of it, and never hears it.
    expect((await surfaces(owner, storyteller.id, prompt.id, answer.id)).audio).toBe(404);
  });
});
