import { describe, expect, it } from "vitest";
import { action as addAction } from "~/routes/dashboard.recipient.$id_.prompts.new";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { outcome, post, replyErrorsOf, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createStoryteller } from "../../../tests/factories";
import { action } from "./route";

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
const add = (user: User, id: string, fields: Record<string, string | string[]>) =>
  outcome(() =>
    addAction({
      request: post(user.jar, `/dashboard/recipient/${id}/prompts/new`, fields),
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

const idOf = async (storytellerId: string, text: string) =>
  (
    await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", storytellerId)
      .where("text", "=", text)
      .executeTakeFirstOrThrow()
  ).id;

describe("the Storyteller view's buttons", () => {
  it("move a question, and answer an unknown intent or a malformed post with a 400, changing nothing", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: ["First question?", "Second question?"],
    });
    const [first, second] = st.prompts;
    expect(await act(owner, st.id, { intent: "move-up", promptId: second.id })).toMatchObject({
      status: 302,
      // Back to the same item, without JavaScript: its row's anchor.
      location: `/dashboard/recipient/${st.id}#prompt-${second.id}`,
    });
    expect(await queueOf(st.id)).toEqual(["Second question?", "First question?"]);

    const malformed: Record<string, string>[] = [
      { intent: "shuffle", promptId: first.id },
      { promptId: first.id },
      { intent: "move-up", promptId: "not-an-id" },
      { intent: "delete" },
    ];
    for (const fields of malformed) {
      expect([fields, (await act(owner, st.id, fields)).status]).toEqual([fields, 400]);
    }
    expect(await queueOf(st.id)).toEqual(["Second question?", "First question?"]);
  });

  it("tell a too-short edit beside its text, and keep the question", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id, prompts: ["First question?"] });
    const refused = await act(owner, st.id, { intent: "edit", promptId: st.prompts[0].id, text: "Hm" });
    expect(refused).toMatchObject({ status: 400, data: { form: "edit", promptId: st.prompts[0].id } });
    expect(replyErrorsOf(refused.data)).toEqual({ text: ["validation.tooShort"] });
    expect(await queueOf(st.id)).toEqual(["First question?"]);
  });
});

describe("adding questions", () => {
  it("says why nothing was added (none chosen, all already queued) and adds the rest", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id, prompts: ["What made you laugh this week?"] });
    const none = await add(owner, st.id, { customPrompts: "" });
    expect(none.status).toBe(400);
    expect(replyErrorsOf(none.data)).toEqual({ "": ["storytellers:toast.noneSelected"] });

    const repeated = await add(owner, st.id, { customPrompts: "what made you laugh this week?" });
    expect(repeated.status).toBe(400);
    expect(replyErrorsOf(repeated.data)).toEqual({ "": ["storytellers:toast.alreadyScheduled"] });

    const [library] = await database.db
      .selectFrom("library_prompts")
      .select(["id", "text_en"])
      .orderBy("category_id")
      .orderBy("position")
      .limit(1)
      .execute();
    expect(
      await add(owner, st.id, { libraryPromptIds: [String(library.id)], customPrompts: "Who taught you to cook?" }),
    ).toMatchObject({ status: 302, location: `/dashboard/recipient/${st.id}` });
    expect(await queueOf(st.id)).toEqual([
      "What made you laugh this week?",
      library.text_en,
      "Who taught you to cook?",
    ]);

    // The same library question again, even once reworded in the queue, is refused.
    await act(owner, st.id, { intent: "edit", promptId: await idOf(st.id, library.text_en), text: "Reworded, then?" });
    const again = await add(owner, st.id, { libraryPromptIds: [String(library.id)] });
    expect(again.status).toBe(400);
    expect(replyErrorsOf(again.data)).toEqual({ "": ["storytellers:toast.alreadyScheduled"] });
    expect(await queueOf(st.id)).toHaveLength(3);
  });
});
