import { describe, expect, it } from "vitest";
import { getStorytellerView } from "~/models/prompt.server";
import { loader as responsesLoader } from "~/routes/responses.$recipientId";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createAnswer, createGroup, createPrompt, createStoryteller } from "../../../tests/factories";
import { action, loader } from "./route";

// What a collaborator sees and may do on the Storyteller view (decision 018); who may do what at
// all is app/routes/authorization-matrix.test.ts.
const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Nani's queue: the owner's two questions with the collaborator's between and after them. */
async function family() {
  const owner = await signedInUser(database, { first_name: "Priya" });
  const collaborator = await signedInUser(database, { first_name: "Vikram" });
  const st = await createStoryteller(database.db, { ownerId: owner.id, prompts: ["Where were you born?"] });
  const mine = (text: string, createdBy: string) =>
    createPrompt(database.db, { storytellerId: st.id, text, createdBy });
  const ownerFirst = st.prompts[0];
  const collabFirst = await mine("What songs did your mother sing?", collaborator.id);
  const ownerSecond = await mine("What was your first job?", owner.id);
  const ownerThird = await mine("Who was your best friend?", owner.id);
  const collabSecond = await mine("What did you cook on Diwali?", collaborator.id);
  await createGroup(database.db, { ownerId: owner.id, storytellerId: st.id, collaborators: [collaborator.id] });
  return { owner, collaborator, storytellerId: st.id, ownerFirst, collabFirst, ownerSecond, ownerThird, collabSecond };
}

/** The page as the user sees it: the Scheduled tab, or with `sent` the Sent tab (?sent=true). */
const view = (user: User, id: string, tab: "scheduled" | "sent" = "scheduled") =>
  loader({
    request: get(user.jar, `/dashboard/recipient/${id}${tab === "sent" ? "?sent=true" : ""}`),
    context: makeTestContext(database),
    params: { id },
    ...routeArgs,
  });
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
      .select("id")
      .where("storyteller_id", "=", id)
      .where("sent_at", "is", null)
      .orderBy("queue_position")
      .execute()
  ).map((p) => p.id);

describe("the Storyteller view for a collaborator", () => {
  it("offers the owner's controls to the owner only, and marks the prompts the collaborator may change", async () => {
    const f = await family();
    const asCollaborator = await view(f.collaborator, f.storytellerId);
    expect(asCollaborator).toMatchObject({ role: "collaborator", canManage: false });
    expect(asCollaborator.queued.map((p) => [p.text, p.editable])).toEqual([
      ["Where were you born?", false],
      ["What songs did your mother sing?", true],
      ["What was your first job?", false],
      ["Who was your best friend?", false],
      ["What did you cook on Diwali?", true],
    ]);
    // Who added what stays on the server, and so do the fields only a sent prompt has.
    expect(asCollaborator.queued.every((p) => Object.keys(p).sort().join() === "editable,id,text")).toBe(true);

    const asOwner = await view(f.owner, f.storytellerId);
    // Only the shown tab's prompts are in the page; both tabs' counts are.
    expect(asOwner.sent).toEqual([]);
    expect(asOwner.counts.queued).toBe(asOwner.queued.length);
    expect(asOwner).toMatchObject({ role: "owner", canManage: true });
    expect(asOwner.queued.every((p) => p.editable)).toBe(true);
  });

  it("moves the collaborator's own prompts past others', and the others keep their order among themselves", async () => {
    const f = await family();
    // Back to the moved question's row (its anchor).
    const back = (promptId: string) => ({
      status: 302,
      location: `/dashboard/recipient/${f.storytellerId}#prompt-${promptId}`,
    });
    expect(
      await act(f.collaborator, f.storytellerId, { intent: "move-up", promptId: f.collabSecond.id }),
    ).toMatchObject(back(f.collabSecond.id));
    expect(
      await act(f.collaborator, f.storytellerId, { intent: "move-up", promptId: f.collabSecond.id }),
    ).toMatchObject(back(f.collabSecond.id));
    expect(
      await act(f.collaborator, f.storytellerId, {
        intent: "place",
        promptId: f.collabFirst.id,
        beforeId: f.ownerFirst.id,
      }),
    ).toMatchObject(back(f.collabFirst.id));
    expect(await queueOf(f.storytellerId)).toEqual([
      f.collabFirst.id,
      f.ownerFirst.id,
      f.collabSecond.id,
      f.ownerSecond.id,
      f.ownerThird.id,
    ]);
    // Dragging someone else's prompt is refused like anything else they may not change, and changes nothing.
    const before = await queueOf(f.storytellerId);
    expect(
      (await act(f.collaborator, f.storytellerId, { intent: "place", promptId: f.ownerThird.id, beforeId: "" })).status,
    ).toBe(404);
    expect(await queueOf(f.storytellerId)).toEqual(before);
  });

  it("shows a private answer as private, with no player, transcript or share link, on the Sent tab and /responses", async () => {
    const f = await family();
    await createAnswer(database.db, {
      storytellerId: f.storytellerId,
      isPrivate: true,
      transcriptSegments: [{ start: 0, end: 2, text: "Only for me." }],
      transcriptStatus: "done",
    });
    const { sent } = await view(f.collaborator, f.storytellerId, "sent");
    expect(sent).toEqual([expect.objectContaining({ is_private: true, transcript: null, share_url: null })]);
    // Not even the words' timings leave the database for a private answer.
    const rows = await getStorytellerView(database.db, f.collaborator.id, f.storytellerId);
    expect(JSON.stringify(rows)).not.toContain("Only for me.");

    const printable = await responsesLoader({
      request: get(f.collaborator.jar, `/responses/${f.storytellerId}`),
      context: makeTestContext(database),
      params: { recipientId: f.storytellerId },
      ...routeArgs,
    });
    expect(printable.stories).toEqual([expect.objectContaining({ state: "private", transcript: null })]);
  });
});
