import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../tests/context";
import { get, outcome, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createGroup, createPrompt, createStoryteller } from "../../tests/factories";
import { loader } from "./dashboard._index";

const database = useTestDatabase();
type User = Awaited<ReturnType<typeof signedInUser>>;
type Page = Awaited<ReturnType<typeof loader>>;

async function overview(user: User): Promise<Page> {
  const result = await outcome(() =>
    loader({ request: get(user.jar, "/dashboard"), context: makeTestContext(database), params: {}, ...routeArgs }),
  );
  expect(result.status).toBe(200);
  return result.data as Page;
}

async function answer(storytellerId: string, text: string, options: { isPrivate?: boolean } = {}) {
  const prompt = await createPrompt(database.db, { storytellerId, text, sentAt: new Date() });
  return createAnswer(database.db, { storytellerId, promptId: prompt.id, durationMs: 83_000, ...options });
}

describe("the overview leads with the newest answers", () => {
  it("the three newest the user may hear, newest first, with who, the question, when and how long", async () => {
    const owner = await signedInUser(database);
    const collaborator = await signedInUser(database);
    const stranger = await signedInUser(database);
    const nani = await createStoryteller(database.db, { ownerId: owner.id, nickname: "Nani", firstName: "Kamla" });
    await createGroup(database.db, { ownerId: owner.id, storytellerId: nani.id, collaborators: [collaborator.id] });
    await answer(nani.id, "Oldest story here?");
    await answer(nani.id, "Second story here?");
    await answer(nani.id, "Third story here?");
    await answer(nani.id, "Private story here?", { isPrivate: true });
    await answer(nani.id, "Newest story here?");

    for (const user of [owner, collaborator]) {
      const page = await overview(user);
      expect(page.newest.map((a) => a.question)).toEqual([
        "Newest story here?",
        "Third story here?",
        "Second story here?",
      ]);
      expect(page.newest[0]).toMatchObject({ storytellerName: "Nani", durationLabel: "1:23", isPrivate: false });
      expect(page.newest[0].dateLabel).toMatch(/\d{4}/);
    }
    expect((await overview(stranger)).newest).toEqual([]);
  });
});
