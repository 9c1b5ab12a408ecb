import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createAnswersInBulk, createStoryteller } from "../../../tests/factories";
import { action, loader } from "./route";
import { formatDuration } from "./server";

const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;
type Page = Awaited<ReturnType<typeof loader>>;

const open = (user: User, path: string) =>
  outcome(() => loader({ request: get(user.jar, path), context: makeTestContext(database), params: {}, ...routeArgs }));

async function page(user: User, path: string): Promise<Page> {
  const result = await open(user, path);
  expect(result.status).toBe(200);
  return result.data as Page;
}

const answerIds = (data: Page) => data.months.flatMap((m) => m.items.map((item) => item.id));

async function ownerWithAnswers() {
  const user = await signedInUser(database);
  const nani = await createStoryteller(database.db, { ownerId: user.id, nickname: "Nani" });
  const dada = await createStoryteller(database.db, { ownerId: user.id, nickname: "Dada" });
  // 30 answers, 3 days apart, from 20 March 2026 back into January.
  const made = await createAnswersInBulk(database.db, {
    storytellerIds: [nani.id, dada.id],
    count: 30,
    newest: new Date("2026-03-20T10:00:00Z"),
    spacingMs: 3 * 86_400_000,
  });
  return { user, nani, dada, made };
}

describe("/dashboard/timeline", () => {
  it("sends a visitor who is not signed in to the login page", async () => {
    const result = await outcome(() =>
      loader({
        request: new Request("http://localhost:3000/dashboard/timeline"),
        context: makeTestContext(database),
        params: {},
        ...routeArgs,
      }),
    );
    expect(result).toMatchObject({ status: 302, location: "/auth/login?redirectTo=%2Fdashboard%2Ftimeline" });
  });

  it("shows the newest 20 answers in month groups named in the page's language, and links to older ones", async () => {
    const { user, made } = await ownerWithAnswers();
    const first = await page(user, "/dashboard/timeline");
    expect(first.months.map((m) => [m.month, m.label, m.items.length])).toEqual([
      ["2026-03", "March 2026", 7],
      ["2026-02", "February 2026", 9],
      ["2026-01", "January 2026", 4],
    ]);
    expect(answerIds(first)).toEqual(made.slice(0, 20).map((a) => a.id));
    expect(first.months[0].items[0]).toMatchObject({ dateLabel: "Mar 20, 2026", storytellerName: "Nani" });
    expect(first.newestLink).toBeNull();
    expect(first.olderLink).toMatch(/^\/dashboard\/timeline\?before=/);

    const second = await page(user, first.olderLink!);
    expect(answerIds(second)).toEqual(made.slice(20).map((a) => a.id));
    expect(second.olderLink).toBeNull();
    expect(second.newestLink).toBe("/dashboard/timeline");

    const hindi = await page(user, "/dashboard/timeline?lng=hi");
    expect(hindi.months.map((m) => m.label)).toEqual(["मार्च 2026", "फ़रवरी 2026", "जनवरी 2026"]);
    expect(hindi.title).toMatch(/^समयरेखा/);
  });

  it("filters by Storyteller through the address (a GET form), and keeps the filter on the next page", async () => {
    const { user, dada, made } = await ownerWithAnswers();
    const dadas = made.filter((a) => a.storyteller_id === dada.id).map((a) => a.id);
    const first = await page(user, `/dashboard/timeline?storyteller=${dada.id}`);
    expect(first.selected).toBe(dada.id);
    expect(first.storytellers.map((s) => s.name)).toEqual(["Dada", "Nani"]);
    expect(answerIds(first)).toEqual(dadas);
    expect(first.olderLink).toBeNull();

    const moreOfDada = await createAnswersInBulk(database.db, {
      storytellerIds: [dada.id],
      count: 10,
      newest: new Date("2026-04-01T10:00:00Z"),
    });
    const withMore = await page(user, `/dashboard/timeline?storyteller=${dada.id}`);
    expect(withMore.olderLink).toMatch(new RegExp(`^/dashboard/timeline\\?storyteller=${dada.id}&before=`));
    const next = await page(user, withMore.olderLink!);
    expect(answerIds(next)).toEqual([...moreOfDada.map((a) => a.id), ...dadas].slice(20));
  });

  it("answers bad cursors and filters with the first page or an empty one, never an error", async () => {
    const { user, made } = await ownerWithAnswers();
    const stranger = await signedInUser(database);
    const newest20 = made.slice(0, 20).map((a) => a.id);
    for (const query of [
      "before=nonsense",
      "before=2026-02-30T10:20:30.123456Z_0b6c3e2e-8f5a-4c1e-9f0e-2d7a1b3c4d5e",
      `before=${"9".repeat(5000)}`,
      "before=%00%27",
      "before=a&before=b",
      "storyteller=not-a-uuid",
      "storyteller=",
      "storyteller=%27%3B--",
    ]) {
      const result = await page(user, `/dashboard/timeline?${query}`);
      expect([query, answerIds(result)]).toEqual([query, newest20]);
    }
    // A cursor past the oldest answer: an empty page with the way back.
    const past = await page(
      user,
      "/dashboard/timeline?before=1970-01-01T00:00:00.000000Z_0b6c3e2e-8f5a-4c1e-9f0e-2d7a1b3c4d5e",
    );
    expect(past.months).toEqual([]);
    expect(past.newestLink).toBe("/dashboard/timeline");

    // Someone else's Storyteller, or one that does not exist: nothing, and nothing about them.
    for (const storyteller of [made[0].storyteller_id, "0b6c3e2e-8f5a-4c1e-9f0e-2d7a1b3c4d5e"]) {
      const result = await page(stranger, `/dashboard/timeline?storyteller=${storyteller}`);
      expect(result).toMatchObject({ months: [], storytellers: [], olderLink: null });
    }
  });

  it('marks an answer given by calling in (the card says "By phone")', async () => {
    const user = await signedInUser(database);
    const nani = await createStoryteller(database.db, { ownerId: user.id, nickname: "Nani", prompts: [] });
    const byPhone = await createAnswer(database.db, { storytellerId: nani.id, viaPhone: true });
    const recorded = await createAnswer(database.db, { storytellerId: nani.id });
    const items = (await page(user, "/dashboard/timeline")).months.flatMap((m) => m.items);
    expect(Object.fromEntries(items.map((item) => [item.id, item.viaPhone]))).toEqual({
      [byPhone.id]: true,
      [recorded.id]: false,
    });
  });
});

describe("an answer's length", () => {
  it("reads as minutes and seconds", () => {
    expect([0, 999, 59_400, 60_000, 187_000, 300_000].map(formatDuration)).toEqual([
      "0:00",
      "0:01",
      "0:59",
      "1:00",
      "3:07",
      "5:00",
    ]);
  });
});

describe("hearts and notes on the Timeline", () => {
  const send = (user: User, fields: Record<string, string>, path = "/dashboard/timeline?index") =>
    outcome(() =>
      action({ request: post(user.jar, path, fields), context: makeTestContext(database), params: {}, ...routeArgs }),
    );

  it("takes a heart without JavaScript back to the answer, and with it stays put; the page shows it", async () => {
    const owner = await signedInUser(database, { first_name: "Priya" });
    const nani = await createStoryteller(database.db, { ownerId: owner.id, nickname: "Nani", prompts: [] });
    const answer = await createAnswer(database.db, { storytellerId: nani.id });
    const own = await createAnswer(database.db, { storytellerId: nani.id, isPrivate: true });

    expect(
      await send(owner, { intent: "heart", answerId: answer.id }, "/dashboard/timeline?storyteller=" + nani.id),
    ).toMatchObject({
      status: 302,
      location: `/dashboard/timeline?storyteller=${nani.id}#answer-${answer.id}`,
    });
    expect(await send(owner, { intent: "note", answerId: answer.id, note: "Tell us more!", js: "1" })).toMatchObject({
      status: 200,
      data: { reaction: { answerId: answer.id, saved: true } },
    });
    const shown = await page(owner, "/dashboard/timeline");
    const items = shown.months.flatMap((m) => m.items);
    expect(items.find((item) => item.id === answer.id)?.reactions).toMatchObject({
      hearts: 1,
      heartedByMe: true,
      notes: [{ author: "Priya", text: "Tell us more!", mine: true }],
    });
    // A private answer has no hearts to give (and is not the family's to hear).
    expect(items.find((item) => item.id === own.id)?.reactions ?? null).toBeNull();
  });

  it("sends an empty or too long note back to its field, and refuses an answer the user may not hear", async () => {
    const owner = await signedInUser(database);
    const stranger = await signedInUser(database);
    const nani = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const answer = await createAnswer(database.db, { storytellerId: nani.id });
    expect(await send(owner, { intent: "note", answerId: answer.id, note: "  " })).toMatchObject({
      status: 400,
      data: { reaction: { answerId: answer.id, noteError: "validation.required" } },
    });
    expect(await send(owner, { intent: "note", answerId: answer.id, note: "x".repeat(501) })).toMatchObject({
      status: 400,
      data: { reaction: { noteError: "validation.tooLong" } },
    });
    expect((await send(stranger, { intent: "heart", answerId: answer.id })).status).toBe(404);
    expect((await send(owner, { intent: "heart", answerId: "nope" })).status).toBe(400);
  });
});
