import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createNotifications, createStoryteller, createUser, signIn } from "../../tests/factories";
import { action as pageAction } from "./dashboard.notifications/route";
import { action as bellAction, loader as bellLoader } from "./resources.notifications";

// The notifications page's "Mark all as read" and the bell's posts: each takes only its own intents.
const database = useTestDatabase();
const context = () => makeTestContext(database);

async function userWithNotifications(count: number) {
  const user = await createUser(database.db);
  const storyteller = await createStoryteller(database.db, { ownerId: user.id });
  const ids = await createNotifications(database.db, {
    userId: user.id,
    storytellerId: storyteller.id,
    promptId: storyteller.prompts[0].id,
    createdAt: Array.from({ length: count }, () => new Date()),
  });
  const { cookie } = await signIn(context(), user.id);
  return { user, cookie, ids };
}

const unread = async (userId: string) =>
  (
    await database.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", userId)
      .where("is_new", "=", true)
      .execute()
  ).length;

/** A same-origin form post; pairs, since the bell repeats `id`. */
const post = (path: string, cookie: string, fields: Record<string, string> | [string, string][]) =>
  new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Cookie: cookie },
    body: new URLSearchParams(fields),
  });

// A Response (thrown or returned), or conform's reply sent with data() and its status.
const statusOf = (result: unknown) =>
  result instanceof Response ? result.status : ((result as { init?: { status?: number } })?.init?.status ?? 200);

describe("/dashboard/notifications", () => {
  it("marks everything read with its button, and refuses any other intent with a 400", async () => {
    const { user, cookie } = await userWithNotifications(3);
    const refused = await pageAction({
      request: post("/dashboard/notifications", cookie, { intent: "all" }),
      context: context(),
      params: {},
      ...routeArgs,
    }).catch((error: Response) => error);
    expect(statusOf(refused)).toBe(400);
    expect(await unread(user.id)).toBe(3);

    const done = await pageAction({
      request: post("/dashboard/notifications", cookie, { intent: "markAllRead" }),
      context: context(),
      params: {},
      ...routeArgs,
    });
    expect((done as Response).status).toBe(302);
    expect(await unread(user.id)).toBe(0);
  });
});

describe("/resources/notifications", () => {
  it("lists the newest items with ISO dates for the popover", async () => {
    const { cookie, ids } = await userWithNotifications(2);
    const response = await bellLoader({
      request: new Request("http://localhost:3000/resources/notifications", { headers: { Cookie: cookie } }),
      context: context(),
      params: {},
      ...routeArgs,
    });
    const body = (await response.json()) as { ok: boolean; items: { id: string; createdAt: string }[] };
    expect(body.ok).toBe(true);
    expect(body.items.map((item) => item.id).sort()).toEqual([...ids].sort());
    expect(new Date(body.items[0].createdAt).toISOString()).toBe(body.items[0].createdAt);
  });

  it("marks the shown ids (with or without the intent), or everything; an unknown intent is a 400 and marks nothing", async () => {
    const { user, cookie, ids } = await userWithNotifications(4);
    const mark = async (fields: [string, string][]) => {
      const response = await bellAction({
        request: post("/resources/notifications", cookie, fields),
        context: context(),
        params: {},
        ...routeArgs,
      });
      return { status: response.status, body: (await response.json()) as { ok: boolean; marked: number } };
    };

    expect(await mark([["intent", "everything"]])).toEqual({ status: 400, body: { ok: false, marked: 0 } });
    expect(await unread(user.id)).toBe(4);

    expect(
      await mark([
        ["intent", "shown"],
        ["id", ids[0]],
      ]),
    ).toEqual({ status: 200, body: { ok: true, marked: 1 } });
    // As the bell posted before it named its intent (and as a second tab still may).
    expect(
      await mark([
        ["id", ids[1]],
        ["id", ids[2]],
      ]),
    ).toEqual({ status: 200, body: { ok: true, marked: 2 } });
    expect(await unread(user.id)).toBe(1);
    expect(await mark([["intent", "all"]])).toEqual({ status: 200, body: { ok: true, marked: 1 } });
    expect(await unread(user.id)).toBe(0);
  });
});
