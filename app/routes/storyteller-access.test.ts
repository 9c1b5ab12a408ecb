import { Kysely, PostgresDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { loader as overviewLoader } from "~/routes/dashboard._index";
import { loader as boardLoader } from "~/routes/dashboard.kanban";
import { action as viewAction, loader as viewLoader } from "~/routes/dashboard.recipient.$id/route";
import { action as editAction, loader as editLoader } from "~/routes/dashboard.recipient.$id_.edit/route";
import { action as addAction, loader as addLoader } from "~/routes/dashboard.recipient.$id_.prompts.new";
import type { Database } from "../../db/schema";
import { makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { useTestDatabase } from "../../tests/db";
import { createSignedInUser, createStoryteller } from "../../tests/factories";

// First prompt dates are at most a year ahead (firstPromptDateProblem).
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const database = useTestDatabase();

async function userWithStorytellers(storytellers: number, promptsEach: number) {
  const user = await createSignedInUser(makeTestContext(database));
  const ids: string[] = [];
  for (let s = 0; s < storytellers; s++) {
    const st = await createStoryteller(database.db, {
      ownerId: user.id,
      prompts: Array.from({ length: promptsEach }, (_, i) => ({
        text: `Question number ${i}?`,
        sentAt: i % 3 === 0 ? new Date(Date.now() - i * 1000) : null,
      })),
    });
    ids.push(st.id);
  }
  const jar = new CookieJar();
  jar.store(new Response(null, { headers: { "Set-Cookie": user.setCookie } }));
  return { userId: user.id, storytellerIds: ids, jar };
}

const get = (jar: CookieJar, path = "/x") =>
  new Request(`http://localhost:3000${path}`, { headers: { Cookie: jar.header() } });
const post = (jar: CookieJar, fields: Record<string, string>) =>
  new Request("http://localhost:3000/x", {
    method: "POST",
    headers: { Cookie: jar.header(), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    (r) => (r instanceof Response ? r.status : 200),
    (e: Response) => e.status,
  );

async function snapshot() {
  const { db } = database;
  return JSON.stringify([
    await db.selectFrom("storytellers").selectAll().orderBy("id").execute(),
    await db.selectFrom("prompts").selectAll().orderBy("id").execute(),
    await db.selectFrom("schedules").selectAll().orderBy("storyteller_id").execute(),
    await db.selectFrom("deliveries").selectAll().execute(),
  ]);
}

describe("authorization: another user's Storyteller", () => {
  it("is a 404 for every page and every action, and nothing changes", async () => {
    const owner = await userWithStorytellers(1, 3);
    const intruder = await userWithStorytellers(0, 0);
    const id = owner.storytellerIds[0];
    const promptId = (
      await database.db
        .selectFrom("prompts")
        .select("id")
        .where("storyteller_id", "=", id)
        .where("sent_at", "is", null)
        .executeTakeFirstOrThrow()
    ).id;
    const context = makeTestContext(database);
    const params = { id };
    const before = await snapshot();
    const attempts: [string, () => Promise<unknown>][] = [
      ["view", () => viewLoader({ request: get(intruder.jar), context, params, ...routeArgs })],
      ["add page", () => addLoader({ request: get(intruder.jar), context, params, ...routeArgs })],
      ["edit page", () => editLoader({ request: get(intruder.jar), context, params, ...routeArgs })],
      ...["move-up", "move-down", "delete", "send-now"].map(
        (intent) =>
          [
            intent,
            () => viewAction({ request: post(intruder.jar, { intent, promptId }), context, params, ...routeArgs }),
          ] as [string, () => Promise<unknown>],
      ),
      [
        "place",
        () =>
          viewAction({
            request: post(intruder.jar, { intent: "place", promptId, beforeId: "" }),
            context,
            params,
            ...routeArgs,
          }),
      ],
      [
        "edit prompt",
        () =>
          viewAction({
            request: post(intruder.jar, { intent: "edit", promptId, text: "Taken over?" }),
            context,
            params,
            ...routeArgs,
          }),
      ],
      [
        "add prompts",
        () =>
          addAction({
            request: post(intruder.jar, { customPrompts: "Something new to ask?" }),
            context,
            params,
            ...routeArgs,
          }),
      ],
      [
        "update storyteller",
        () =>
          editAction({
            request: post(intruder.jar, {
              intent: "update",
              nickname: "Mine",
              firstName: "X",
              deliveryMethod: "email",
              email: "x@example.com",
              timeZone: "UTC",
              language: "en",
              firstPromptDate: inAMonth,
              frequency: "daily",
            }),
            context,
            params,
            ...routeArgs,
          }),
      ],
      [
        "delete storyteller",
        () =>
          editAction({
            request: post(intruder.jar, { intent: "delete", confirm: "on" }),
            context,
            params,
            ...routeArgs,
          }),
      ],
    ];
    for (const [name, attempt] of attempts) expect([name, await statusOf(attempt())]).toEqual([name, 404]);
    expect(await snapshot()).toBe(before);

    const overview = await overviewLoader({ request: get(intruder.jar), context, params: {}, ...routeArgs });
    expect(overview.storytellers).toEqual([]);
    const board = await boardLoader({ request: get(intruder.jar), context, params: {}, ...routeArgs });
    expect(board.columns).toEqual([]);
  });
});

describe("query counts do not grow with the data", () => {
  async function countQueries(run: (context: ReturnType<typeof makeTestContext>) => Promise<unknown>) {
    let queries = 0;
    const counting = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: database.pool }),
      log: () => void queries++,
    });
    await run({ ...makeTestContext(database), db: counting });
    return queries;
  }

  it("overview, Storyteller view and board: 1 × 5 prompts costs the same as 16 × 100", async () => {
    const small = await userWithStorytellers(1, 5);
    const large = await userWithStorytellers(16, 100);
    const pages = (user: typeof small) => [
      (context: ReturnType<typeof makeTestContext>) =>
        overviewLoader({ request: get(user.jar), context, params: {}, ...routeArgs }),
      (context: ReturnType<typeof makeTestContext>) =>
        viewLoader({ request: get(user.jar), context, params: { id: user.storytellerIds[0] }, ...routeArgs }),
      (context: ReturnType<typeof makeTestContext>) =>
        boardLoader({ request: get(user.jar), context, params: {}, ...routeArgs }),
    ];
    const smallCounts = await Promise.all(pages(small).map(countQueries));
    const largeCounts = await Promise.all(pages(large).map(countQueries));
    expect(largeCounts).toEqual(smallCounts);
    expect(smallCounts.every((n) => n > 0 && n <= 5)).toBe(true);
  });
});
