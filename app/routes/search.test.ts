import { describe, expect, it } from "vitest";
import { SEARCH_LIMIT } from "~/models/search.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { get, outcome, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createGroup, createPrompt, createStoryteller } from "../../tests/factories";
import { loader } from "./dashboard.search";

const database = useTestDatabase();
type User = Awaited<ReturnType<typeof signedInUser>>;
type Page = Awaited<ReturnType<typeof loader>>;

async function search(user: User, q: string): Promise<Page> {
  const result = await outcome(() =>
    loader({
      request: get(user.jar, `/dashboard/search?q=${encodeURIComponent(q)}`),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    }),
  );
  expect(result.status).toBe(200);
  return result.data as Page;
}

async function family() {
  const owner = await signedInUser(database);
  const collaborator = await signedInUser(database);
  const nani = await createStoryteller(database.db, { ownerId: owner.id, nickname: "Nani", firstName: "Kamla" });
  await createGroup(database.db, { ownerId: owner.id, storytellerId: nani.id, collaborators: [collaborator.id] });
  const market = await createAnswer(database.db, {
    storytellerId: nani.id,
    transcriptSegments: [
      { start: 0, end: 4, text: "I grew up in Lucknow." },
      { start: 4, end: 9, text: "Every Sunday we walked to the markets with my father." },
    ],
  });
  const hindi = await createAnswer(database.db, {
    storytellerId: nani.id,
    transcriptSegments: [
      { start: 0, end: 3, text: "मेरा बचपन लखनऊ में बीता।" },
      { start: 3, end: 8, text: "हम हर साल गाँव जाते थे।" },
    ],
  });
  const wedding = await createPrompt(database.db, {
    storytellerId: nani.id,
    text: "Tell me about your wedding day",
    sentAt: new Date(),
  });
  const byQuestion = await createAnswer(database.db, {
    storytellerId: nani.id,
    promptId: wedding.id,
    transcript: "It rained all day.",
  });
  const secret = await createAnswer(database.db, {
    storytellerId: nani.id,
    isPrivate: true,
    transcript: "The secret market.",
  });
  return { owner, collaborator, nani, market, hindi, byQuestion, secret };
}

describe("/dashboard/search", () => {
  it("finds English words by their stem, marks them and plays from the segment they were said in", async () => {
    const { owner, market, secret } = await family();
    const page = await search(owner, "walking market");
    expect(page.hits.map((hit) => hit.id)).toEqual([market.id]);
    expect(page.hits.map((hit) => hit.id)).not.toContain(secret.id);
    const [hit] = page.hits;
    // Named as the family calls her, like the Timeline.
    expect(hit.storytellerName).toBe("Nani");
    expect(hit.startAt).toBe(4);
    expect(hit.snippet).toContain("\u0001walked\u0002");
    expect(hit.snippet).toContain("\u0001markets\u0002");
    // The result opens the answer where it is kept: on Nani's Sent tab, at its question.
    const answer = await database.db
      .selectFrom("answers")
      .select("prompt_id")
      .where("id", "=", market.id)
      .executeTakeFirstOrThrow();
    expect(hit.href).toBe(`/dashboard/recipient/${market.storyteller_id}?sent=true#prompt-${answer.prompt_id}`);
  });

  it("finds an irregular verb by its other forms: swim and swum find swam", async () => {
    const { owner, nani } = await family();
    const lake = await createAnswer(database.db, {
      storytellerId: nani.id,
      transcript: "In the summer we swam across the lake every morning.",
    });
    const page = await search(owner, "swim lake");
    expect(page.hits.map((hit) => hit.id)).toEqual([lake.id]);
    expect(page.hits[0].snippet).toContain("\u0001swam\u0002");
    expect((await search(owner, "swum")).hits.map((hit) => hit.id)).toEqual([lake.id]);
    // An English verb's forms join only their own: "swim" does not find "went".
    expect((await search(owner, "swim went")).hits).toEqual([]);
  });

  it("finds Hindi words in Devanagari, exactly and spelt a little differently", async () => {
    const { owner, hindi } = await family();
    const exact = await search(owner, "लखनऊ");
    expect(exact.hits.map((hit) => hit.id)).toEqual([hindi.id]);
    expect(exact.hits[0].snippet).toContain("\u0001लखनऊ\u0002");
    expect(exact.hits[0].startAt).toBe(0);
    // गांव (anusvara) for गाँव (chandrabindu): trigram similarity, at the segment it was said in.
    const fuzzy = await search(owner, "गांव जाते थे");
    expect(fuzzy.hits.map((hit) => hit.id)).toEqual([hindi.id]);
    expect(fuzzy.hits[0].startAt).toBe(3);
  });

  it("a word said in many answers: the best first, one page of them, each with its snippet", async () => {
    const { owner, nani } = await family();
    for (let i = 0; i < SEARCH_LIMIT + 5; i++)
      await createAnswer(database.db, { storytellerId: nani.id, transcript: `On day ${i} the river was high.` });
    const best = await createAnswer(database.db, {
      storytellerId: nani.id,
      transcript: "The river, the river: we swam in the river every summer.",
    });
    const page = await search(owner, "river");
    expect(page.hits).toHaveLength(SEARCH_LIMIT);
    expect(page.hits[0].id).toBe(best.id);
    expect(page.hits.every((hit) => hit.snippet?.includes("\u0001river\u0002"))).toBe(true);
  });

  it("finds an answer by its question", async () => {
    const { collaborator, byQuestion } = await family();
    const page = await search(collaborator, "weddings");
    expect(page.hits.map((hit) => hit.id)).toEqual([byQuestion.id]);
    expect(page.hits[0].questionMarked).toContain("\u0001wedding\u0002");
  });

  it("finds nothing for a removed collaborator or a stranger", async () => {
    const { collaborator } = await family();
    const stranger = await signedInUser(database);
    expect((await search(stranger, "Lucknow")).hits).toEqual([]);
    await database.db.deleteFrom("group_members").where("user_id", "=", collaborator.id).execute();
    expect((await search(collaborator, "Lucknow")).hits).toEqual([]);
  });

  it("answers a query too long or with control characters with a message, not an error", async () => {
    const { owner } = await family();
    expect(await search(owner, "word ".repeat(60))).toMatchObject({ problem: "tooLong", hits: [] });
    expect(await search(owner, "a\u0000b")).toMatchObject({ problem: "invalid", hits: [] });
    expect(await search(owner, "   ")).toMatchObject({ problem: null, searched: false, hits: [] });
    expect(await search(owner, '"unbalanced & | ! (')).toMatchObject({ problem: null, searched: true });
  });
});
