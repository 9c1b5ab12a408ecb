import { describe, expect, it } from "vitest";
import { answerForListener } from "~/models/share.server";
import { getSidebarCounts } from "~/models/sidebar.server";
import { signCapability } from "~/services/tokens.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createStoryteller, createUser, signIn } from "../../tests/factories";
import { loader as myStoriesLoader } from "./dashboard.mystories/route";
import { loader as responsesLoader } from "./responses.$recipientId";
import { loader as registerLoader } from "./responses.register.$recipientId";

const database = useTestDatabase();
const context = () => makeTestContext(database);

async function signedIn(userId: string, path: string) {
  const { cookie } = await signIn(context(), userId);
  return new Request(`http://localhost:3000${path}`, { headers: { Cookie: cookie } });
}

async function storiesFixture() {
  const owner = await createUser(database.db, { first_name: "Ravi" });
  const storytellerAccount = await createUser(database.db, { first_name: "Kamla" });
  const storyteller = await createStoryteller(database.db, {
    ownerId: owner.id,
    email: storytellerAccount.email.toUpperCase(),
    prompts: ["Tell me about your village.", "What did you sing at weddings?", "Who was your best friend?"],
  });
  const [open, secret, skipped] = storyteller.prompts;
  await database.db
    .updateTable("prompts")
    .set({ sent_at: new Date("2026-01-01") })
    .where("storyteller_id", "=", storyteller.id)
    .execute();
  await database.db
    .updateTable("prompts")
    .set({ skipped_at: new Date("2026-01-02") })
    .where("id", "=", skipped.id)
    .execute();
  for (const [prompt, isPrivate, transcript, viaPhone] of [
    [open, false, "We had a well by the temple.", true],
    [secret, true, "A song only for me.", false],
  ] as const) {
    await createAnswer(database.db, {
      storytellerId: storyteller.id,
      promptId: prompt.id,
      isPrivate,
      viaPhone,
      transcript,
      transcriptStatus: "done",
      recordedForEmail: storytellerAccount.email.toLowerCase(),
    });
  }
  return { owner, storytellerAccount, storyteller };
}

describe("/responses/{recipientId}", () => {
  it("shows the owner every question, and private answers only as 'private'", async () => {
    const { owner, storyteller } = await storiesFixture();
    const page = await responsesLoader({
      request: await signedIn(owner.id, `/responses/${storyteller.id}`),
      context: context(),
      params: { recipientId: storyteller.id },
      ...routeArgs,
    });
    expect(page.firstName).toBe("Kamla");
    expect(page.stories.map((s) => [s.question, s.state, s.transcript, s.viaPhone])).toEqual([
      ["Tell me about your village.", "answered", "We had a well by the temple.", true],
      ["What did you sing at weddings?", "private", null, false],
      ["Who was your best friend?", "skipped", null, false],
    ]);
  });

  it("shows the Storyteller's own account their private answers too", async () => {
    const { storytellerAccount, storyteller } = await storiesFixture();
    const page = await responsesLoader({
      request: await signedIn(storytellerAccount.id, `/responses/${storyteller.id}`),
      context: context(),
      params: { recipientId: storyteller.id },
      ...routeArgs,
    });
    expect(page.stories.find((s) => s.question === "What did you sing at weddings?")).toMatchObject({
      state: "answered",
      transcript: "A song only for me.",
    });
  });

  it("is a 404 for anyone else", async () => {
    const { storyteller } = await storiesFixture();
    const stranger = await createUser(database.db);
    await expect(
      responsesLoader({
        request: await signedIn(stranger.id, `/responses/${storyteller.id}`),
        context: context(),
        params: { recipientId: storyteller.id },
        ...routeArgs,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("/responses/register/{recipientId}", () => {
  const load = (recipientId: string, token?: string) =>
    registerLoader({
      request: new Request(`http://localhost:3000/responses/register/${recipientId}${token ? `?t=${token}` : ""}`),
      context: context(),
      params: { recipientId },
      ...routeArgs,
    });

  it("greets the Storyteller by name and fills in the sign-up form, only with the link from their record page", async () => {
    const { storyteller } = await storiesFixture();
    const token = await signCapability(context().config, "register", storyteller.id);
    const page = await load(storyteller.id, token);
    expect(page.storyteller?.firstName).toBe("Kamla");
    expect(page.storyteller?.registerUrl).toMatch(/^\/auth\/register\?firstName=Kamla&email=/);
  });

  it("reveals nothing without that link: the same page for a real id, a made-up one, a tampered or foreign token", async () => {
    const { storyteller } = await storiesFixture();
    const other = await storiesFixture();
    const token = await signCapability(context().config, "register", storyteller.id);
    const pages = [
      await load(storyteller.id),
      await load("00000000-0000-4000-8000-000000000000"),
      await load(storyteller.id, token.slice(0, -2) + "xx"),
      await load(other.storyteller.id, token),
      await load(storyteller.id, await signCapability(context().config, "record", storyteller.id)),
    ];
    for (const page of pages) expect(page).toEqual(pages[0]);
    expect(pages[0].storyteller).toBeNull();
  });
});

describe("/dashboard/mystories", () => {
  it("lists the answers the user recorded as a Storyteller, private ones too, and lets only them play the private one", async () => {
    const { owner, storytellerAccount } = await storiesFixture();
    const page = await myStoriesLoader({
      request: await signedIn(storytellerAccount.id, "/dashboard/mystories"),
      context: context(),
      params: {},
      ...routeArgs,
    });
    expect(page.stories.map((s) => [s.question, s.askerName, s.isPrivate]).sort()).toEqual([
      ["Tell me about your village.", "Ravi", false],
      ["What did you sing at weddings?", "Ravi", true],
    ]);
    const secret = page.stories.find((s) => s.isPrivate)!;
    expect(await answerForListener(database.db, storytellerAccount.id, secret.id)).not.toBeNull();
    expect(await answerForListener(database.db, owner.id, secret.id)).toBeNull();
    expect((await getSidebarCounts(database.db, storytellerAccount.id)).myStories).toBe(2);
    expect((await getSidebarCounts(database.db, owner.id)).myStories).toBe(0);
  });
});

describe("who counts as the Storyteller", () => {
  it("is the address the record links went to, not whatever the owner later types into the Storyteller's email", async () => {
    const { owner, storyteller } = await storiesFixture();
    const stranger = await createUser(database.db, { first_name: "Mallory" });
    // The owner points the Storyteller at their own address, then at someone else's.
    for (const email of [owner.email, stranger.email]) {
      await database.db.updateTable("storytellers").set({ email }).where("id", "=", storyteller.id).execute();
      const mine = await myStoriesLoader({
        request: await signedIn(owner.id, "/dashboard/mystories"),
        context: context(),
        params: {},
        ...routeArgs,
      });
      expect(mine.stories).toEqual([]);
    }
    const secret = await database.db
      .selectFrom("answers")
      .select("id")
      .where("is_private", "=", true)
      .where("storyteller_id", "=", storyteller.id)
      .executeTakeFirstOrThrow();
    expect(await answerForListener(database.db, owner.id, secret.id)).toBeNull();
    expect(await answerForListener(database.db, stranger.id, secret.id)).toBeNull();
    await expect(
      responsesLoader({
        request: await signedIn(stranger.id, `/responses/${storyteller.id}`),
        context: context(),
        params: { recipientId: storyteller.id },
        ...routeArgs,
      }),
    ).rejects.toMatchObject({ status: 404 });
    const ownerView = await responsesLoader({
      request: await signedIn(owner.id, `/responses/${storyteller.id}`),
      context: context(),
      params: { recipientId: storyteller.id },
      ...routeArgs,
    });
    expect(ownerView.stories.find((s) => s.question === "What did you sing at weddings?")).toMatchObject({
      state: "private",
      transcript: null,
    });
  });

  it("answers a malformed id with 404, not an error", async () => {
    const { owner } = await storiesFixture();
    await expect(
      responsesLoader({
        request: await signedIn(owner.id, "/responses/nope"),
        context: context(),
        params: { recipientId: "nope" },
        ...routeArgs,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
