import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { outcome, post, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createStoryteller } from "../../../tests/factories";
import { action } from "./route";
import { storytellerPage } from "./server";

const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;
const act = (user: User, id: string, fields: Record<string, string>) =>
  outcome(() =>
    action({
      request: post(user.jar, `/dashboard/recipient/${id}`, fields),
      context: makeTestContext(database),
      params: { id },
      ...routeArgs,
    }),
  );
const queueOf = async (id: string) =>
  (
    await database.db
      .selectFrom("prompts")
      .select("text")
      .where("storyteller_id", "=", id)
      .where("sent_at", "is", null)
      .orderBy("queue_position")
      .execute()
  ).map((p) => p.text);

describe("moving a queued question", () => {
  it("to the top in one post, coming back to its row without JavaScript", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: ["First one?", "Second one?", "Third one?", "Fourth one?"],
    });
    const fourth = st.prompts[3];
    expect(await act(owner, st.id, { intent: "move-top", promptId: fourth.id })).toMatchObject({
      status: 302,
      location: `/dashboard/recipient/${st.id}#prompt-${fourth.id}`,
    });
    expect(await queueOf(st.id)).toEqual(["Fourth one?", "First one?", "Second one?", "Third one?"]);
  });

  it("through a fetcher (js=1): no redirect, the page stays where it is, the order is saved", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: ["First one?", "Second one?", "Third one?"],
    });
    const [first, second, third] = st.prompts;
    expect(await act(owner, st.id, { intent: "move-down", promptId: first.id, js: "1" })).toMatchObject({
      status: 200,
      location: null,
      data: { moved: first.id },
    });
    expect(
      await act(owner, st.id, { intent: "place", promptId: third.id, beforeId: second.id, js: "1" }),
    ).toMatchObject({ status: 200, location: null });
    expect(await queueOf(st.id)).toEqual(["Third one?", "Second one?", "First one?"]);
  });

  it("refuses another user's question and a sent one (404), moving nothing", async () => {
    const owner = await signedInUser(database);
    const stranger = await signedInUser(database);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: ["First one?", "Second one?", { text: "Sent already?", sentAt: new Date() }],
    });
    expect((await act(stranger, st.id, { intent: "move-top", promptId: st.prompts[1].id })).status).toBe(404);
    expect((await act(owner, st.id, { intent: "move-top", promptId: st.prompts[2].id })).status).toBe(404);
    expect(await queueOf(st.id)).toEqual(["First one?", "Second one?"]);
  });
});

describe("the Sent tab", () => {
  it("knows each answer's length before it is played", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: [{ text: "Where were you born?", sentAt: new Date() }],
    });
    await createAnswer(database.db, { storytellerId: st.id, promptId: st.prompts[0].id, durationMs: 83_000 });
    const page = await storytellerPage(makeTestContext(database), owner.id, st.id, "sent");
    expect(page?.sent.map((p) => p.duration_ms)).toEqual([83_000]);
  });
});
