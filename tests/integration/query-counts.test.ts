import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { getSessionUser } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import { loader as rootLoader } from "~/root";
import { loader as layoutLoader } from "~/routes/dashboard";
import { loader as overviewLoader } from "~/routes/dashboard._index";
import { loader as storytellerLoader } from "~/routes/dashboard.recipient.$id/route";
import { loader as searchLoader } from "~/routes/dashboard.search";
import { loader as timelineLoader } from "~/routes/dashboard.timeline/route";
import { makeTestContext, routeArgs } from "../context";
import { useTestDatabase } from "../db";
import {
  createAnswer,
  createAnswersInBulk,
  createGroup,
  createSignedInUser,
  createStoryteller,
  createStorytellers,
  createUser,
} from "../factories";
import { countingDb, explain } from "../query-count";

// The dashboard's pages issue a fixed number of SQL statements whatever the data (no N+1): the same
// for one answer as for 10,000 answers over 16 Storytellers, 4 of them shared through groups.

const database = useTestDatabase();

type Account = { cookie: string; ownStorytellerId: string; groupStorytellerId: string | null };
let small: Account;
let large: Account & { email: string };

beforeAll(async () => {
  const context = makeTestContext(database);
  {
    const user = await createSignedInUser(context);
    const nani = await createStoryteller(database.db, { ownerId: user.id });
    await createAnswer(database.db, { storytellerId: nani.id });
    small = { cookie: user.cookie, ownStorytellerId: nani.id, groupStorytellerId: null };
  }
  {
    const user = await createSignedInUser(context);
    const own = await createStorytellers(database.db, 12, { ownerId: user.id });
    const shared: string[] = [];
    for (let g = 0; g < 4; g++) {
      const owner = await createUser(database.db);
      const storyteller = await createStoryteller(database.db, { ownerId: owner.id, nickname: `Group ${g + 1}` });
      await createGroup(database.db, { ownerId: owner.id, storytellerId: storyteller.id, collaborators: [user.id] });
      shared.push(storyteller.id);
    }
    const storytellerIds = [...own.map((s) => s.id), ...shared];
    await createAnswersInBulk(database.db, { storytellerIds, count: 9_950, privateEvery: 10 });
    // Answers recorded for the user's own address (they are a Storyteller too): private ones included.
    await createAnswersInBulk(database.db, {
      storytellerIds: [shared[0]],
      count: 50,
      privateEvery: 2,
      recordedForEmail: user.email,
    });
    // One answer among the 10,000 with words no other has, for the search's plan.
    await createAnswer(database.db, {
      storytellerId: shared[1],
      transcript: "We walked to Aminabad for the Lucknow markets.",
    });
    await sql`analyze`.execute(database.db);
    large = { cookie: user.cookie, email: user.email, ownStorytellerId: own[0].id, groupStorytellerId: shared[0] };
  }
  const total = await database.db
    .selectFrom("answers")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  expect(Number(total.n)).toBe(10_002);
});

type Loader = (args: { request: Request; context: AppContext; params: Record<string, string> }) => Promise<unknown>;

/** The statements one loader call sends, as a browser's request with this account's cookie would. */
async function statementsOf(loader: Loader, account: Account, path: string, params: Record<string, string> = {}) {
  const counter = countingDb(database);
  const request = new Request(`http://localhost:3000${path}`, { headers: { Cookie: account.cookie } });
  const result = await loader({ request, context: makeTestContext(database, {}, { db: counter.db }), params });
  expect(result).not.toBeInstanceOf(Response);
  return counter.statements;
}

const timelineArgs = (args: Parameters<Loader>[0]) => timelineLoader({ ...args, ...routeArgs });
const searchArgs = (args: Parameters<Loader>[0]) => searchLoader({ ...args, ...routeArgs });

describe("statements per page, 1 answer against 10,000", () => {
  it("the overview (/dashboard) and the layout around every dashboard page", async () => {
    const overview = (args: Parameters<Loader>[0]) => overviewLoader({ ...args, ...routeArgs });
    const layout = (args: Parameters<Loader>[0]) => layoutLoader({ ...args, ...routeArgs });
    for (const loader of [overview, layout]) {
      const one = (await statementsOf(loader, small, "/dashboard")).length;
      expect(one).toBeGreaterThanOrEqual(2); // the session, then the page's own
      expect((await statementsOf(loader, large, "/dashboard")).length).toBe(one);
    }
  });

  it("the Storyteller view, of one's own Storyteller and of a group's", async () => {
    const view = (args: Parameters<Loader>[0]) => storytellerLoader({ ...args, ...routeArgs });
    const one = (
      await statementsOf(view, small, `/dashboard/recipient/${small.ownStorytellerId}?sent=true`, {
        id: small.ownStorytellerId,
      })
    ).length;
    expect(one).toBeGreaterThanOrEqual(2);
    for (const id of [large.ownStorytellerId, large.groupStorytellerId!]) {
      expect((await statementsOf(view, large, `/dashboard/recipient/${id}?sent=true`, { id })).length).toBe(one);
    }
  });

  it("the Timeline: first page, a later page, and filtered", async () => {
    const one = await statementsOf(timelineArgs, small, "/dashboard/timeline");
    // The session, the page of answers, the filter's choices, the hearts and notes on the page.
    expect(one).toHaveLength(4);
    const first = await statementsOf(timelineArgs, large, "/dashboard/timeline");
    expect(first).toHaveLength(one.length);

    const counter = countingDb(database);
    const request = new Request("http://localhost:3000/dashboard/timeline", { headers: { Cookie: large.cookie } });
    const page = await timelineLoader({
      request,
      context: makeTestContext(database, {}, { db: counter.db }),
      params: {},
      ...routeArgs,
    });
    expect(page.months.flatMap((m) => m.items)).toHaveLength(20);
    expect(page.olderLink).not.toBeNull();
    expect((await statementsOf(timelineArgs, large, page.olderLink!)).length).toBe(one.length);
    const filtered = `/dashboard/timeline?storyteller=${large.groupStorytellerId}`;
    expect((await statementsOf(timelineArgs, large, filtered)).length).toBe(one.length);
  });
});

describe("the session, once per page", () => {
  // React Router gives each matched route's loader its own copy of the Request, and all of them the
  // same load context: root, layout and page loaders share one session lookup through the context.
  const copyOf = (request: Request) => new Request(request.url, request);
  const sessionLookups = (statements: { sql: string }[]) =>
    statements.filter((s) => /from "sessions"/.test(s.sql)).length;

  it("looks the session up once for the root, the layout and the page", async () => {
    const counter = countingDb(database);
    const context = makeTestContext(database, {}, { db: counter.db });
    const request = new Request("http://localhost:3000/dashboard", { headers: { Cookie: large.cookie } });
    const args = { context, params: {}, ...routeArgs };
    await Promise.all([
      rootLoader({ ...args, request: copyOf(request) }),
      layoutLoader({ ...args, request: copyOf(request) }),
      overviewLoader({ ...args, request: copyOf(request) }),
    ]);
    expect(sessionLookups(counter.statements)).toBe(1);
  });

  it("looks again for another cookie and for an action, so loaders after an action see its changes", async () => {
    const counter = countingDb(database);
    const context = makeTestContext(database, {}, { db: counter.db });
    const headers = (cookie: string) => ({ headers: { Cookie: cookie } });
    await getSessionUser(new Request("http://localhost:3000/dashboard", headers(large.cookie)), context);
    await getSessionUser(
      new Request("http://localhost:3000/dashboard", { method: "POST", ...headers(large.cookie) }),
      context,
    );
    const other = await getSessionUser(new Request("http://localhost:3000/dashboard", headers(small.cookie)), context);
    expect(sessionLookups(counter.statements)).toBe(3);
    const [again] = await Promise.all([
      getSessionUser(new Request("http://localhost:3000/dashboard/kanban", headers(small.cookie)), context),
    ]);
    expect(again).toEqual(other);
    expect(sessionLookups(counter.statements)).toBe(3);
  });
});

describe("search by what was said, with 10,000 answers", () => {
  it("sends as many statements for 10,000 answers as for one, whatever it finds", async () => {
    const one = await statementsOf(searchArgs, small, "/dashboard/search?q=story");
    for (const q of ["story", "Lucknow", "लखनऊ", "nothing-like-this"])
      expect((await statementsOf(searchArgs, large, `/dashboard/search?q=${encodeURIComponent(q)}`)).length).toBe(
        one.length,
      );
  });

  it("finds the words through the GIN indexes of migration 0020, never reading the whole table", async () => {
    const statements = await statementsOf(searchArgs, large, "/dashboard/search?q=Lucknow%20markets");
    const searchQuery = statements.find((s) => /heirloom_words/.test(s.sql));
    expect(searchQuery, "the search's query").toBeDefined();
    const plan = (await explain(database, searchQuery!)).join("\n");
    if (process.env.SHOW_PLAN) process.stdout.write(`${plan}\n`);
    expect(plan).toContain("answers_words_idx");
    expect(plan).toContain("answers_words_trgm_idx");
    expect(plan).not.toMatch(/Seq Scan on answers/);
  });
});

describe("the Timeline's query plan with 10,000 answers", () => {
  it("reads each Storyteller's newest answers through the keyset index, never the whole table", async () => {
    for (const path of ["/dashboard/timeline", `/dashboard/timeline?storyteller=${large.groupStorytellerId}`]) {
      const statements = await statementsOf(timelineArgs, large, path);
      const pageQuery = statements.find((s) => /cross join lateral/i.test(s.sql));
      expect(pageQuery, "the Timeline's page query").toBeDefined();
      const plan = (await explain(database, pageQuery!)).join("\n");
      expect(plan).toContain("answers_storyteller_timeline_idx");
      expect(plan).toContain("answers_recorded_for_timeline_idx");
      expect(plan).not.toMatch(/Seq Scan on answers/);
    }
  });

  it("reads about a page per Storyteller, whatever the number of answers", async () => {
    const statements = await statementsOf(timelineArgs, large, "/dashboard/timeline");
    const pageQuery = statements.find((s) => /cross join lateral/i.test(s.sql))!;
    const { rows } = await database.pool.query<{ "QUERY PLAN": unknown }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${pageQuery.sql}`,
      pageQuery.parameters as unknown[],
    );
    type PlanNode = { "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; Plans?: PlanNode[] };
    const answerRowsRead = (node: PlanNode): number =>
      (node["Relation Name"] === "answers" ? node["Actual Rows"] * node["Actual Loops"] : 0) +
      (node.Plans ?? []).reduce((sum, child) => sum + answerRowsRead(child), 0);
    const [{ Plan }] = rows[0]["QUERY PLAN"] as [{ Plan: PlanNode }];
    // 16 Storytellers × 21 + 21 of the user's own, then the 20 shown joined back: far from 10,000.
    expect(answerRowsRead(Plan)).toBeLessThanOrEqual(16 * 21 + 21 + 21);
  });
});
