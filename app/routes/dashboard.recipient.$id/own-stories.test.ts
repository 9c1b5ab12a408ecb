import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { action as editAction, loader as editLoader } from "~/routes/dashboard.recipient.$id_.edit/route";
import { action as addAction, loader as addLoader } from "~/routes/dashboard.recipient.$id_.prompts.new";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import {
  createAnswer,
  createPrompt,
  createSelfStoryteller,
  createShareLink,
  createStoryteller,
} from "../../../tests/factories";
import { action, loader } from "./route";
import { Intent } from "./schema";

// A user's own stories sit under their is_self Storyteller row (decision 017), which they own but
// which has no Storyteller page: the view's loader, each of its actions, Edit Storyteller and Add New
// Prompt all answer 404 for it, and a hand-made post changes nothing.

const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Asha's own stories: a recorded story (shared once), one not recorded yet, and a question queued by hand. */
async function ownStories() {
  const context = makeTestContext(database);
  const user = await signedInUser(database, { first_name: "Asha" });
  const { email } = await database.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  const self = await createSelfStoryteller(database.db, { id: user.id, email, first_name: "Asha" });
  const recorded = await createAnswer(database.db, {
    storytellerId: self.id,
    storage: context.storage,
    transcript: "The day I met your grandfather.",
    transcriptStatus: "done",
  });
  const unshared = await createAnswer(database.db, { storytellerId: self.id, storage: context.storage });
  await createShareLink(database.db, { answerId: recorded.id, createdBy: user.id });
  const draft = await createPrompt(database.db, { storytellerId: self.id, createdBy: user.id, sentAt: new Date() });
  const [first, second] = await Promise.all(
    ["A question queued by hand?", "Another one?"].map((text) =>
      createPrompt(database.db, { storytellerId: self.id, createdBy: user.id, text }),
    ),
  );
  return { context, user, selfId: self.id, recorded, unshared, draft, first, second };
}
type Own = Awaited<ReturnType<typeof ownStories>>;

async function snapshot(own: Own) {
  const db = database.db;
  const rows = await Promise.all([
    db.selectFrom("storytellers").selectAll().orderBy("id").execute(),
    db.selectFrom("schedules").selectAll().orderBy("storyteller_id").execute(),
    db.selectFrom("prompts").selectAll().orderBy("id").execute(),
    db.selectFrom("answers").selectAll().orderBy("id").execute(),
    db.selectFrom("share_links").selectAll().orderBy("id").execute(),
    db.selectFrom("deliveries").selectAll().orderBy("id").execute(),
    db.selectFrom("notifications").selectAll().orderBy("id").execute(),
    sql`select task_id, payload, key from graphile_worker._private_jobs order by id`.execute(db).then((r) => r.rows),
  ]);
  const stored = await Promise.all(
    [own.recorded.storage_key, own.unshared.storage_key].map(async (key) =>
      Boolean(await own.context.storage.head(key!)),
    ),
  );
  return JSON.stringify([rows, stored]);
}

const view = (own: Own) => `/dashboard/recipient/${own.selfId}`;
const args = (own: Own, request: Request) => ({
  request,
  context: own.context,
  params: { id: own.selfId },
  ...routeArgs,
});
const onView = (own: Own, user: User, fields: Record<string, string>) =>
  outcome(() => action(args(own, post(user.jar, view(own), fields))));

/** Every button of the view, aimed at the own stories' prompts and answers. */
const posts = (own: Own): Record<string, string>[] => [
  { intent: Intent.moveUp, promptId: own.second.id },
  { intent: Intent.moveDown, promptId: own.first.id },
  { intent: Intent.place, promptId: own.first.id, beforeId: "" },
  { intent: Intent.edit, promptId: own.first.id, text: "A question reworded by hand?" },
  { intent: Intent.delete, promptId: own.first.id },
  { intent: Intent.delete, promptId: own.draft.id },
  { intent: Intent.sendNow, promptId: own.first.id },
  { intent: Intent.pause },
  { intent: Intent.resume },
  { intent: Intent.answerShare, answerId: own.unshared.id },
  { intent: Intent.answerShare, answerId: own.unshared.id, js: "1" },
  { intent: Intent.answerUnshare, answerId: own.recorded.id },
  { intent: Intent.answerDelete, answerId: own.recorded.id, confirm: "on" },
  { intent: Intent.answerRerecord, answerId: own.recorded.id, confirm: "on" },
  // Malformed: still a 404, not a 400 (the guard comes before the post is read).
  { intent: "shuffle" },
];

describe("a user's own stories (the is_self Storyteller) have no Storyteller page", () => {
  it("the view's loader is a 404 for them", async () => {
    const own = await ownStories();
    expect((await outcome(() => loader(args(own, get(own.user.jar, view(own)))))).status).toBe(404);
  });

  it("each of the view's actions is a 404 for them, and changes nothing", async () => {
    const own = await ownStories();
    const before = await snapshot(own);
    for (const fields of posts(own)) {
      expect([fields, (await onView(own, own.user, fields)).status]).toEqual([fields, 404]);
      expect(await snapshot(own)).toBe(before);
    }
  });

  it("Edit Storyteller is a 404 for them, page and posts, and changes nothing", async () => {
    const own = await ownStories();
    const before = await snapshot(own);
    const edit = `${view(own)}/edit`;
    expect((await outcome(() => editLoader(args(own, get(own.user.jar, edit))))).status).toBe(404);
    const edits: Record<string, string>[] = [
      { intent: "delete", confirm: "on" },
      {
        intent: "update",
        nickname: "Me",
        firstName: "Asha",
        deliveryMethod: "email",
        email: "asha.new@example.com",
        timeZone: "Asia/Kolkata",
        language: "en",
        firstPromptDate: "2031-01-01",
        frequency: "weekly",
      },
      { intent: "update" },
    ];
    for (const fields of edits)
      expect([fields, (await outcome(() => editAction(args(own, post(own.user.jar, edit, fields))))).status]).toEqual([
        fields,
        404,
      ]);
    expect(await snapshot(own)).toBe(before);
  });

  it("Add New Prompt is a 404 for them, page and posts (even malformed ones), and changes nothing", async () => {
    const own = await ownStories();
    const before = await snapshot(own);
    const add = `${view(own)}/prompts/new`;
    expect((await outcome(() => addLoader(args(own, get(own.user.jar, add))))).status).toBe(404);
    for (const fields of [
      { customPrompts: "What did you do on Sundays?" },
      { customPrompts: "" },
      { other: "" },
    ] as Record<string, string>[])
      expect([fields, (await outcome(() => addAction(args(own, post(own.user.jar, add, fields))))).status]).toEqual([
        fields,
        404,
      ]);
    expect(await snapshot(own)).toBe(before);
  });

  it("while a Storyteller they ask keeps its page (the guard refuses only the is_self row)", async () => {
    const own = await ownStories();
    const nani = await createStoryteller(database.db, { ownerId: own.user.id, prompts: ["Where were you born?"] });
    const request = get(own.user.jar, `/dashboard/recipient/${nani.id}`);
    const page = await outcome(() => loader({ request, context: own.context, params: { id: nani.id }, ...routeArgs }));
    expect(page.status).toBe(200);
    const deleted = await outcome(() =>
      action({
        request: post(own.user.jar, `/dashboard/recipient/${nani.id}`, {
          intent: Intent.delete,
          promptId: nani.prompts[0].id,
        }),
        context: own.context,
        params: { id: nani.id },
        ...routeArgs,
      }),
    );
    expect(deleted.status).toBe(302);
  });
});
