import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { notifyStorytellerEvent } from "~/models/notification.server";
import { signCapability, signPhonePlayback } from "~/services/tokens.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { outcome } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import {
  createAnswer,
  createGroup,
  createGroupInvitation,
  createKeepsake,
  createListenLink,
  createPhoneRecording,
  createPrompt,
  createShareLink,
  createSentEmail,
  createSignedInUser,
  createStoryteller,
  deleteGroupMember,
} from "../../tests/factories";
import { action as invitationAction, loader as invitationLoader } from "./_public.invitations.$token";
import { loader as layoutLoader } from "./dashboard";
import { loader as overviewLoader } from "./dashboard._index";
import { action as wordsAction, loader as wordsLoader } from "./dashboard.answers.$answerId.words/route";
import { action as groupAction, loader as groupLoader } from "./dashboard.groups.$id/route";
import { action as newGroupAction } from "./dashboard.groups.new/route";
import { loader as boardLoader } from "./dashboard.kanban";
import { loader as everythingLoader } from "./dashboard.keep";
import { action as myStoriesAction, loader as myStoriesLoader } from "./dashboard.mystories/route";
import {
  action as myStoriesRecordAction,
  loader as myStoriesRecordLoader,
} from "./dashboard.mystories_.record.$promptId/route";
import { loader as notificationsPageLoader } from "./dashboard.notifications/route";
import { action as viewAction, loader as viewLoader } from "./dashboard.recipient.$id/route";
import { action as editAction, loader as editLoader } from "./dashboard.recipient.$id_.edit/route";
import { action as keepAction, loader as keepLoader } from "./dashboard.recipient.$id_.keep/route";
import { action as addAction, loader as addLoader } from "./dashboard.recipient.$id_.prompts.new";
import { loader as searchLoader } from "./dashboard.search";
import { action as timelineAction, loader as timelineLoader } from "./dashboard.timeline/route";
import { action as inviteSomeoneAction } from "./dashboard.user.new";
import { loader as keepsakeDownloadLoader } from "./dashboard_.keep.$id.download";
import { action as exportAction } from "./dashboard_.keep.export";
import { action as familyNotesAction } from "./dashboard_.recipient.$id_.family-notes";
import { loader as listenPageLoader } from "./l.$token";
import { loader as listenAudioLoader } from "./l.$token.audio";
import { loader as mediaLoader } from "./media.answer.$answerId";
import { loader as captionsLoader } from "./media.answer.$answerId.captions[.vtt]";
import { loader as phonePlaybackLoader } from "./phone.play.$token";
import { loader as bellLoader } from "./resources.notifications";
import { loader as responsesLoader } from "./responses.$recipientId";
import { loader as sharePageLoader } from "./s.$token";
import { loader as shareAudioLoader } from "./s.$token.audio";

// First prompt dates are at most a year ahead (firstPromptDateProblem).
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

/*
 * The authorization matrix (docs/CONVENTIONS.md; what each role may do: docs/product.md and
 * decision 018): every route and action that touches a Storyteller, tried by each role. One entry
 * per route/action in `matrix` below: `may` lists the roles the product allows; every other role gets
 * a 404 and the database (and the stored recordings) stay exactly as they were. Each allowed
 * (entry, role) runs in a world of its own, built by `buildWorld`; an entry's refused roles share one.
 *
 * To add a row (a new page or action): append an entry to `matrix` with
 *   - `name`: what is tried, in words;
 *   - `may`: the roles allowed (ALL, FAMILY = owner + collaborator, OWNER, or NOBODY);
 *   - `act(world, actor)`: performs it as `actor` through the route's loader or action and returns
 *     the HTTP status (`statusOf(() => loader({...}))`); for a page that lists things rather than
 *     404s, return `shown(found)` (200 when the world's Storyteller/answer is there, 404 when not);
 *   - `status` (optional): what an allowed role gets, when not 200 (302 for a form post);
 *   - `effect` (optional): for an allowed role, what must then be true (so the row can fail);
 *   - `arrange` (optional): what someone else does first (it runs before the snapshot).
 * If the world lacks something the new route needs, add it to `buildWorld` (rows through
 * tests/factories.ts) and, if it can change, its table to `snapshot`.
 */

const database = useTestDatabase();
const context = () => makeTestContext(database);

afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

/** Empties the database: a new world keeps snapshots small and cases independent. */
async function emptyDatabase() {
  await sql`truncate users, outbox_messages, sms_consents cascade`.execute(database.db);
  await sql`delete from graphile_worker._private_jobs`.execute(database.db);
}

// "storyteller" is the Storyteller's own account: the one her record links were sent to (decision 063).
const ROLES = ["owner", "collaborator", "invited", "removed", "left", "stranger", "storyteller"] as const;
type Role = (typeof ROLES)[number];
const ALL = ROLES;
const FAMILY = ["owner", "collaborator"] as const satisfies readonly Role[];
/** The family, and the Storyteller herself for her own answers. */
const HEARERS = ["owner", "collaborator", "storyteller"] as const satisfies readonly Role[];
const STORYTELLER = ["storyteller"] as const satisfies readonly Role[];
const OWNER = ["owner"] as const satisfies readonly Role[];
const NOBODY = [] as const satisfies readonly Role[];

type Actor = { id: string; email: string; cookie: string };

/**
 * One Storyteller (Kamla, "Nani") owned by `owner`, with a group around her. The queue, in order:
 * the owner's first question, the collaborator's, the owner's second, and one added by `left` while
 * still a member. Sent: an answered question (stored recording and transcript), a private answer
 * and a skipped question that every member of the time was told about. Then `removed` is taken out
 * of the group by the owner and `left` leaves it (the same in the data: no membership row); `invited`
 * has a pending invitation and no membership; `stranger` has nothing to do with any of it, but for
 * this: her record links went to `storyteller`'s address (the answers are recorded for it, as
 * acceptRecording does), and the owner has since put the stranger's address on her row.
 */
async function buildWorld() {
  const ctx = context();
  const db = database.db;
  const people = {} as Record<Role, Actor>;
  for (const role of ROLES) people[role] = await createSignedInUser(ctx, { first_name: role });
  const { owner, collaborator, removed, left, invited } = people;

  const storyteller = await createStoryteller(db, {
    ownerId: owner.id,
    nickname: "Nani",
    firstName: "Kamla",
    email: people.storyteller.email,
    prompts: ["Where were you born?"],
  });
  const group = await createGroup(db, {
    ownerId: owner.id,
    storytellerId: storyteller.id,
    collaborators: [collaborator.id, removed.id, left.id],
  });
  const invitation = await createGroupInvitation(db, {
    groupId: group.id,
    email: invited.email,
    invitedBy: owner.id,
  });

  const ownersPrompt = storyteller.prompts[0];
  const collaboratorsPrompt = await createPrompt(db, {
    storytellerId: storyteller.id,
    text: "What songs did your mother sing?",
    createdBy: collaborator.id,
  });
  const ownersSecondPrompt = await createPrompt(db, {
    storytellerId: storyteller.id,
    text: "What was your first job?",
    createdBy: owner.id,
  });
  const leftsPrompt = await createPrompt(db, {
    storytellerId: storyteller.id,
    text: "Who taught you to cook?",
    createdBy: left.id,
  });

  const answer = await createAnswer(db, {
    storytellerId: storyteller.id,
    storage: ctx.storage,
    // Words with timings (captions), the same words as the transcript.
    transcriptSegments: [
      { start: 0, end: 1.5, text: "We had a well" },
      { start: 1.5, end: 3, text: "by the temple." },
    ],
    recordedForEmail: people.storyteller.email,
  });
  const privateAnswer = await createAnswer(db, {
    storytellerId: storyteller.id,
    storage: ctx.storage,
    isPrivate: true,
    transcript: "A song only for me.",
    transcriptStatus: "done",
    recordedForEmail: people.storyteller.email,
  });
  for (const sent of [answer, privateAnswer])
    await createSentEmail(db, { promptId: sent.prompt_id, to: people.storyteller.email });
  await db.updateTable("storytellers").set({ email: people.stranger.email }).where("id", "=", storyteller.id).execute();
  const skipped = await createPrompt(db, {
    storytellerId: storyteller.id,
    sentAt: new Date(),
    skippedAt: new Date(),
    createdBy: owner.id,
  });
  await notifyStorytellerEvent(db, ctx.config, {
    type: "skipped",
    storytellerId: storyteller.id,
    promptId: skipped.id,
  });

  await deleteGroupMember(db, group.id, removed.id);
  await deleteGroupMember(db, group.id, left.id);

  return {
    ctx,
    people,
    storytellerId: storyteller.id,
    groupId: group.id,
    invitationId: invitation.id,
    ownersPrompt,
    collaboratorsPrompt,
    ownersSecondPrompt,
    leftsPrompt,
    answer,
    privateAnswer,
  };
}
type World = Awaited<ReturnType<typeof buildWorld>>;

// Requests as the actor's browser sends them.
const get = (actor: Actor | null, pathname: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost:3000${pathname}`, {
    headers: { ...(actor ? { Cookie: actor.cookie } : {}), ...headers },
  });
const post = (actor: Actor, pathname: string, fields: Record<string, string>) =>
  new Request(`http://localhost:3000${pathname}`, {
    method: "POST",
    headers: {
      Cookie: actor.cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
    },
    body: new URLSearchParams(fields),
  });

const groupPath = (w: World) => `/dashboard/groups/${w.groupId}`;
const onGroupPage = (w: World, actor: Actor, fields: Record<string, string>) =>
  statusOf(() =>
    groupAction({
      request: post(actor, groupPath(w), fields),
      context: w.ctx,
      params: { id: w.groupId },
      ...routeArgs,
    }),
  );
const groupRow = (w: World) =>
  database.db.selectFrom("groups").selectAll().where("id", "=", w.groupId).executeTakeFirst();
const invitationRow = (w: World) =>
  database.db.selectFrom("group_invitations").selectAll().where("id", "=", w.invitationId).executeTakeFirst();
const membersOf = async (w: World) =>
  (
    await database.db
      .selectFrom("group_members")
      .select("user_id")
      .where("group_id", "=", w.groupId)
      .orderBy("role", "desc")
      .execute()
  ).map((m) => m.user_id);

const statusOf = async (run: () => Promise<unknown>) => (await outcome(run)).status;
/** For pages that list things: 200 when the thing is there, 404 when it is not (as good as not found). */
const shown = (found: boolean) => (found ? 200 : 404);

const storytellerPath = (w: World) => `/dashboard/recipient/${w.storytellerId}`;
const onView = (w: World, actor: Actor, fields: Record<string, string>) =>
  statusOf(() =>
    viewAction({
      request: post(actor, storytellerPath(w), fields),
      context: w.ctx,
      params: { id: w.storytellerId },
      ...routeArgs,
    }),
  );
const onEditPage = (w: World, actor: Actor, fields: Record<string, string>) =>
  statusOf(() =>
    editAction({
      request: post(actor, `${storytellerPath(w)}/edit`, fields),
      context: w.ctx,
      params: { id: w.storytellerId },
      ...routeArgs,
    }),
  );
const media = (w: World, actor: Actor, answerId: string, query = "") =>
  statusOf(() =>
    mediaLoader({
      request: get(actor, `/media/answer/${answerId}${query}`),
      context: w.ctx,
      params: { answerId },
      ...routeArgs,
    }),
  );
const captions = (w: World, actor: Actor, answerId: string) =>
  statusOf(() =>
    captionsLoader({
      request: get(actor, `/media/answer/${answerId}/captions.vtt`),
      context: w.ctx,
      params: { answerId },
      ...routeArgs,
    }),
  );
const wordsPath = (answerId: string) => `/dashboard/answers/${answerId}/words`;
const answerRow = (id: string) =>
  database.db.selectFrom("answers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
async function bellItems(w: World, actor: Actor) {
  const response = await bellLoader({
    request: get(actor, "/resources/notifications"),
    context: w.ctx,
    params: {},
    ...routeArgs,
  });
  return ((await response.json()) as { items: { storytellerId: string | null }[] }).items;
}

const queueOf = async (w: World) =>
  (
    await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", w.storytellerId)
      .where("sent_at", "is", null)
      .orderBy("queue_position")
      .execute()
  ).map((p) => p.id);
const promptRow = (id: string) => database.db.selectFrom("prompts").selectAll().where("id", "=", id).executeTakeFirst();
const liveLinks = (answerId: string) =>
  database.db
    .selectFrom("share_links")
    .selectAll()
    .where("answer_id", "=", answerId)
    .where("revoked_at", "is", null)
    .execute();

async function shareToken(w: World) {
  const link = await createShareLink(database.db, { answerId: w.answer.id, createdBy: w.people.owner.id });
  return signCapability(w.ctx.config, "share", link.id);
}

/** A finished keepsake of the given kind for each person in the world, as if each had made one. */
async function keepsakesForEveryone(
  w: World,
  options: { kind: "book" | "export"; storytellerId: string | null; storytellerIds?: string[] },
) {
  for (const role of ROLES) {
    const key = `keepsakes/matrix/${role}.${options.kind === "book" ? "pdf" : "zip"}`;
    await w.ctx.storage.put(key, new Uint8Array([0x25, 0x50, 0x44, 0x46]), "application/octet-stream");
    await createKeepsake(database.db, { userId: w.people[role].id, ...options, storageKey: key, byteSize: 4 });
  }
}

/** The actor downloads the keepsake they made themselves. */
async function downloadOwnKeepsake(w: World, a: Actor) {
  const keepsake = await database.db
    .selectFrom("keepsakes")
    .select("id")
    .where("user_id", "=", a.id)
    .executeTakeFirstOrThrow();
  return statusOf(() =>
    keepsakeDownloadLoader({
      request: get(a, `/dashboard/keep/${keepsake.id}/download`),
      context: w.ctx,
      params: { id: keepsake.id },
      ...routeArgs,
    }),
  );
}

type Row = {
  name: string;
  may: readonly Role[];
  act: (w: World, actor: Actor) => Promise<number>;
  status?: number;
  effect?: (w: World, actor: Actor) => Promise<void>;
  arrange?: (w: World) => Promise<void>;
};

const validStorytellerFields = {
  intent: "update",
  nickname: "Nanima",
  firstName: "Kamla",
  deliveryMethod: "email",
  email: "kamla@example.com",
  timeZone: "Asia/Kolkata",
  language: "en",
  firstPromptDate: inAMonth,
  frequency: "weekly",
};

const matrix: Row[] = [
  // The Storyteller and the pages about it.
  {
    name: "open the Storyteller view",
    may: FAMILY,
    act: (w, a) =>
      statusOf(() =>
        viewLoader({
          request: get(a, storytellerPath(w)),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "find the Storyteller on the overview",
    may: FAMILY,
    act: async (w, a) => {
      const page = await overviewLoader({ request: get(a, "/dashboard"), context: w.ctx, params: {}, ...routeArgs });
      return shown(page.storytellers.some((s) => s.id === w.storytellerId));
    },
  },
  {
    name: "hear the answer on the Timeline",
    may: HEARERS,
    act: async (w, a) => {
      const page = await timelineLoader({
        request: get(a, "/dashboard/timeline"),
        context: w.ctx,
        params: {},
        ...routeArgs,
      });
      return shown(page.months.some((m) => m.items.some((item) => item.id === w.answer.id)));
    },
  },
  {
    name: "filter the Timeline to the Storyteller (a private answer shows to her alone)",
    may: HEARERS,
    act: async (w, a) => {
      const page = await timelineLoader({
        request: get(a, `/dashboard/timeline?storyteller=${w.storytellerId}`),
        context: w.ctx,
        params: {},
        ...routeArgs,
      });
      const ids = page.months.flatMap((m) => m.items.map((item) => item.id));
      expect(ids.includes(w.privateAnswer.id)).toBe(a.id === w.people.storyteller.id);
      return shown(ids.includes(w.answer.id));
    },
  },
  {
    name: "find the Storyteller's column on the board (kanban)",
    may: FAMILY,
    act: async (w, a) => {
      const page = await boardLoader({
        request: get(a, "/dashboard/kanban"),
        context: w.ctx,
        params: {},
        ...routeArgs,
      });
      return shown(page.columns.some((c) => c.id === w.storytellerId));
    },
  },
  {
    name: "open the printable /responses/{id}",
    may: HEARERS,
    act: (w, a) =>
      statusOf(() =>
        responsesLoader({
          request: get(a, `/responses/${w.storytellerId}`),
          context: w.ctx,
          params: { recipientId: w.storytellerId },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "find the Storyteller's answers in My Stories (only the Storyteller's own account does)",
    may: STORYTELLER,
    act: async (w, a) => {
      const page = await myStoriesLoader({
        request: get(a, "/dashboard/mystories"),
        context: w.ctx,
        params: {},
        ...routeArgs,
      });
      return shown(page.stories.some((s) => s.storytellerId === w.storytellerId));
    },
  },
  // My Stories acts only for the Storyteller (the answers' address) or a user's own stories (decision 017).
  {
    name: "open the Storyteller's question on My Stories' recording page",
    may: STORYTELLER,
    act: (w, a) =>
      statusOf(() =>
        myStoriesRecordLoader({
          request: get(a, `/dashboard/mystories/record/${w.answer.prompt_id}`),
          context: w.ctx,
          params: { promptId: w.answer.prompt_id },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "say the Storyteller's question was opened from My Stories' recording page",
    may: STORYTELLER,
    act: (w, a) =>
      statusOf(() =>
        myStoriesRecordAction({
          request: post(a, `/dashboard/mystories/record/${w.answer.prompt_id}`, { intent: "opened" }),
          context: w.ctx,
          params: { promptId: w.answer.prompt_id },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "make the Storyteller's answer private from My Stories",
    may: STORYTELLER,
    status: 302,
    effect: async (w) => expect(await answerRow(w.answer.id)).toMatchObject({ is_private: true }),
    act: (w, a) =>
      statusOf(() =>
        myStoriesAction({
          request: post(a, "/dashboard/mystories", { intent: "privacy", answerId: w.answer.id, private: "1" }),
          context: w.ctx,
          params: {},
          ...routeArgs,
        }),
      ),
  },
  {
    name: "delete the Storyteller's answer from My Stories",
    may: STORYTELLER,
    status: 302,
    effect: async (w) => {
      const left = await database.db.selectFrom("answers").select("id").where("id", "=", w.answer.id).execute();
      expect(left).toEqual([]);
    },
    act: (w, a) =>
      statusOf(() =>
        myStoriesAction({
          request: post(a, "/dashboard/mystories", { intent: "delete", promptId: w.answer.prompt_id, confirm: "on" }),
          context: w.ctx,
          params: {},
          ...routeArgs,
        }),
      ),
  },

  // The edit page: the owner's alone.
  {
    name: "open Edit Storyteller",
    may: OWNER,
    act: (w, a) =>
      statusOf(() =>
        editLoader({
          request: get(a, `${storytellerPath(w)}/edit`),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "change the Storyteller's details and contact",
    may: OWNER,
    status: 302,
    act: (w, a) => onEditPage(w, a, validStorytellerFields),
    effect: async (w) => {
      const row = await database.db
        .selectFrom("storytellers")
        .selectAll()
        .where("id", "=", w.storytellerId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ nickname: "Nanima", email: "kamla@example.com" });
    },
  },
  {
    name: "delete the Storyteller",
    may: OWNER,
    status: 302,
    act: (w, a) => onEditPage(w, a, { intent: "delete", confirm: "on" }),
    effect: async (w) => {
      expect(
        await database.db.selectFrom("storytellers").select("id").where("id", "=", w.storytellerId).execute(),
      ).toEqual([]);
    },
  },
  {
    name: "pause sending",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "pause" }),
    effect: async (w) => {
      const schedule = await database.db
        .selectFrom("schedules")
        .selectAll()
        .where("storyteller_id", "=", w.storytellerId)
        .executeTakeFirstOrThrow();
      expect(schedule.paused_at).not.toBeNull();
    },
  },
  {
    name: "resume sending",
    may: OWNER,
    status: 302,
    arrange: async (w) => {
      await database.db
        .updateTable("schedules")
        .set({ paused_at: new Date() })
        .where("storyteller_id", "=", w.storytellerId)
        .execute();
    },
    act: (w, a) => onView(w, a, { intent: "resume" }),
    effect: async (w) => {
      const schedule = await database.db
        .selectFrom("schedules")
        .selectAll()
        .where("storyteller_id", "=", w.storytellerId)
        .executeTakeFirstOrThrow();
      expect(schedule.paused_at).toBeNull();
    },
  },

  // The prompt queue.
  {
    name: "open Add New Prompt",
    may: FAMILY,
    act: (w, a) =>
      statusOf(() =>
        addLoader({
          request: get(a, `${storytellerPath(w)}/prompts/new`),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "add a prompt (it goes to the end, as theirs)",
    may: FAMILY,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        addAction({
          request: post(a, `${storytellerPath(w)}/prompts/new`, {
            customPrompts: "What did you eat on festival days?",
          }),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
    effect: async (w, a) => {
      const last = (await queueOf(w)).at(-1)!;
      expect(await promptRow(last)).toMatchObject({ text: "What did you eat on festival days?", created_by: a.id });
    },
  },
  {
    name: "edit the collaborator's own prompt",
    may: FAMILY,
    status: 302,
    act: (w, a) =>
      onView(w, a, { intent: "edit", promptId: w.collaboratorsPrompt.id, text: "What lullabies did she sing?" }),
    effect: async (w) => {
      expect((await promptRow(w.collaboratorsPrompt.id))?.text).toBe("What lullabies did she sing?");
    },
  },
  {
    name: "edit the owner's prompt",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "edit", promptId: w.ownersPrompt.id, text: "Where did you grow up?" }),
    effect: async (w) => {
      expect((await promptRow(w.ownersPrompt.id))?.text).toBe("Where did you grow up?");
    },
  },
  {
    name: "edit the prompt a former member added",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "edit", promptId: w.leftsPrompt.id, text: "Who taught you to make rotis?" }),
    effect: async (w) => {
      expect((await promptRow(w.leftsPrompt.id))?.text).toBe("Who taught you to make rotis?");
    },
  },
  {
    name: "move the collaborator's own prompt up (past the owner's)",
    may: FAMILY,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "move-up", promptId: w.collaboratorsPrompt.id }),
    effect: async (w) => {
      expect(await queueOf(w)).toEqual([
        w.collaboratorsPrompt.id,
        w.ownersPrompt.id,
        w.ownersSecondPrompt.id,
        w.leftsPrompt.id,
      ]);
    },
  },
  {
    name: "move the owner's prompt down",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "move-down", promptId: w.ownersPrompt.id }),
    effect: async (w) => {
      expect(await queueOf(w)).toEqual([
        w.collaboratorsPrompt.id,
        w.ownersPrompt.id,
        w.ownersSecondPrompt.id,
        w.leftsPrompt.id,
      ]);
    },
  },
  {
    name: "drag the collaborator's own prompt to the end",
    may: FAMILY,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "place", promptId: w.collaboratorsPrompt.id, beforeId: "" }),
    effect: async (w) => {
      expect(await queueOf(w)).toEqual([
        w.ownersPrompt.id,
        w.ownersSecondPrompt.id,
        w.leftsPrompt.id,
        w.collaboratorsPrompt.id,
      ]);
    },
  },
  {
    name: "drag the owner's prompt to the end",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "place", promptId: w.ownersPrompt.id, beforeId: "" }),
    effect: async (w) => {
      expect(await queueOf(w)).toEqual([
        w.collaboratorsPrompt.id,
        w.ownersSecondPrompt.id,
        w.leftsPrompt.id,
        w.ownersPrompt.id,
      ]);
    },
  },
  {
    name: "delete the collaborator's own prompt",
    may: FAMILY,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "delete", promptId: w.collaboratorsPrompt.id }),
    effect: async (w) => {
      expect(await promptRow(w.collaboratorsPrompt.id)).toBeUndefined();
    },
  },
  {
    name: "delete the owner's prompt",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "delete", promptId: w.ownersPrompt.id }),
    effect: async (w) => {
      expect(await promptRow(w.ownersPrompt.id)).toBeUndefined();
    },
  },
  {
    name: "Send now the collaborator's prompt (Send now is the owner's)",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "send-now", promptId: w.collaboratorsPrompt.id }),
    effect: async (w) => {
      const deliveries = await database.db
        .selectFrom("deliveries")
        .selectAll()
        .where("prompt_id", "=", w.collaboratorsPrompt.id)
        .execute();
      expect(deliveries).toHaveLength(1);
    },
  },
  {
    name: "Send now the owner's prompt",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "send-now", promptId: w.ownersPrompt.id }),
    effect: async (w) => {
      const deliveries = await database.db
        .selectFrom("deliveries")
        .selectAll()
        .where("prompt_id", "=", w.ownersPrompt.id)
        .execute();
      expect(deliveries).toHaveLength(1);
    },
  },

  // Answers: listen, download, share (the family); delete and re-record (the owner); private: nobody here.
  {
    name: "listen to an answer",
    may: HEARERS,
    act: (w, a) => media(w, a, w.answer.id),
  },
  {
    name: "download an answer",
    may: HEARERS,
    act: (w, a) => media(w, a, w.answer.id, "?download=1"),
  },
  {
    name: "listen to a private answer (only its Storyteller, on their own pages)",
    may: STORYTELLER,
    act: (w, a) => media(w, a, w.privateAnswer.id),
  },
  {
    name: "read an answer's captions (.vtt)",
    may: HEARERS,
    act: (w, a) => captions(w, a, w.answer.id),
  },
  {
    name: "read a private answer's captions",
    may: NOBODY,
    act: (w, a) => captions(w, a, w.privateAnswer.id),
  },
  {
    name: "open an answer's words to correct them",
    may: FAMILY,
    act: (w, a) =>
      statusOf(() =>
        wordsLoader({
          request: get(a, wordsPath(w.answer.id)),
          context: w.ctx,
          params: { answerId: w.answer.id },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "correct an answer's words",
    may: FAMILY,
    status: 302,
    act: async (w, a) => {
      const version = createHash("md5").update("We had a well by the temple.").digest("hex");
      const request = post(a, wordsPath(w.answer.id), {});
      const body = new URLSearchParams([
        ["intent", "save"],
        ["version", version],
        ["segment", "We had a well"],
        ["segment", "by the old temple."],
      ]);
      return statusOf(() =>
        wordsAction({
          request: new Request(request, { body }),
          context: w.ctx,
          params: { answerId: w.answer.id },
          ...routeArgs,
        }),
      );
    },
    effect: async (w, a) => {
      expect(await answerRow(w.answer.id)).toMatchObject({
        transcript: "We had a well by the old temple.",
        transcript_edited_by: a.id,
      });
    },
  },
  {
    name: "correct a private answer's words",
    may: NOBODY,
    act: (w, a) =>
      statusOf(() =>
        wordsAction({
          request: post(a, wordsPath(w.privateAnswer.id), {
            intent: "save",
            version: "0".repeat(32),
            text: "Mine now.",
          }),
          context: w.ctx,
          params: { answerId: w.privateAnswer.id },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "find an answer by its words",
    may: HEARERS,
    act: async (w, a) => {
      const data = (await searchLoader({
        request: get(a, "/dashboard/search?q=temple"),
        context: w.ctx,
        params: {},
        ...routeArgs,
      })) as { hits: { id: string }[] };
      return data.hits.some((hit) => hit.id === w.answer.id) ? 200 : 404;
    },
  },
  {
    name: "share an answer",
    may: FAMILY,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "answer-share", answerId: w.answer.id }),
    effect: async (w, a) => {
      expect(await liveLinks(w.answer.id)).toEqual([expect.objectContaining({ created_by_user_id: a.id })]);
    },
  },
  {
    name: "share a private answer",
    may: NOBODY,
    act: (w, a) => onView(w, a, { intent: "answer-share", answerId: w.privateAnswer.id }),
  },
  {
    name: "stop sharing an answer",
    may: FAMILY,
    status: 302,
    arrange: async (w) => void (await shareToken(w)),
    act: (w, a) => onView(w, a, { intent: "answer-unshare", answerId: w.answer.id }),
    effect: async (w) => {
      expect(await liveLinks(w.answer.id)).toEqual([]);
    },
  },
  {
    name: "open a share link /s/{token} (a capability: whoever holds the link)",
    may: ALL,
    act: async (w, a) => {
      const token = await shareToken(w);
      const page = await statusOf(() =>
        sharePageLoader({ request: get(a, `/s/${token}`), context: w.ctx, params: { token }, ...routeArgs }),
      );
      const audio = await statusOf(() =>
        shareAudioLoader({ request: get(a, `/s/${token}/audio`), context: w.ctx, params: { token }, ...routeArgs }),
      );
      return page === audio ? page : 500;
    },
  },
  {
    name: "delete an answer",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "answer-delete", answerId: w.answer.id, confirm: "on" }),
    effect: async (w) => {
      expect(await database.db.selectFrom("answers").select("id").where("id", "=", w.answer.id).execute()).toEqual([]);
      expect(await w.ctx.storage.head(w.answer.storage_key!)).toBeNull();
    },
  },
  {
    name: "delete a private answer (its Storyteller's alone)",
    may: NOBODY,
    act: (w, a) => onView(w, a, { intent: "answer-delete", answerId: w.privateAnswer.id, confirm: "on" }),
  },
  {
    name: "ask for an answer to be re-recorded",
    may: OWNER,
    status: 302,
    act: (w, a) => onView(w, a, { intent: "answer-rerecord", answerId: w.answer.id, confirm: "on" }),
    effect: async (w) => {
      expect((await promptRow(w.answer.prompt_id))?.rerecord_requested_at).not.toBeNull();
    },
  },

  // Notifications about the Storyteller.
  {
    name: "see the Storyteller's notifications in the bell",
    may: FAMILY,
    act: async (w, a) => shown((await bellItems(w, a)).some((item) => item.storytellerId === w.storytellerId)),
  },
  {
    name: "see the Storyteller's notifications on the notifications page (no JavaScript)",
    may: FAMILY,
    act: async (w, a) => {
      const page = await notificationsPageLoader({
        request: get(a, "/dashboard/notifications"),
        context: w.ctx,
        params: {},
        ...routeArgs,
      });
      return shown(page.notifications.some((n) => n.storytellerId === w.storytellerId));
    },
  },
  {
    name: "have them counted on the bell's badge",
    may: FAMILY,
    act: async (w, a) => {
      const layout = await layoutLoader({ request: get(a, "/dashboard"), context: w.ctx, params: {}, ...routeArgs });
      return shown(layout.counts.unreadNotifications > 0);
    },
  },
  {
    name: "be told of a new answer: in the bell, and by email with Activity on",
    may: FAMILY,
    arrange: async (w) => {
      await notifyStorytellerEvent(database.db, w.ctx.config, {
        type: "uploaded",
        storytellerId: w.storytellerId,
        promptId: w.answer.prompt_id,
      });
    },
    act: async (w, a) => {
      const notes = await database.db
        .selectFrom("notifications")
        .select("id")
        .where("user_id", "=", a.id)
        .where("type", "=", "uploaded")
        .where("storyteller_id", "=", w.storytellerId)
        .execute();
      const emails = await database.db
        .selectFrom("outbox_messages")
        .select("id")
        .where("to_address", "=", a.email)
        .where("subject", "is distinct from", "A question for you") // her question's own send
        .execute();
      if (notes.length === 1 && emails.length === 1) return 200;
      return notes.length === 0 && emails.length === 0 ? 404 : 500;
    },
  },
  // Groups (decision 018: the group's "owner" governs its page; collaborators see it and may leave).
  {
    name: "open the group page",
    may: FAMILY,
    act: (w, a) =>
      statusOf(() =>
        groupLoader({ request: get(a, groupPath(w)), context: w.ctx, params: { id: w.groupId }, ...routeArgs }),
      ),
  },
  {
    name: "rename the group",
    may: OWNER,
    status: 302,
    act: (w, a) => onGroupPage(w, a, { intent: "update", name: "Renamed", description: "A new description" }),
    effect: async (w) => expect((await groupRow(w))?.name).toBe("Renamed"),
  },
  {
    name: "remove the collaborator from the group",
    may: OWNER,
    status: 302,
    act: (w, a) => onGroupPage(w, a, { intent: "remove", memberId: w.people.collaborator.id, confirm: "yes" }),
    effect: async (w) => expect(await membersOf(w)).toEqual([w.people.owner.id]),
  },
  {
    name: "leave the group (its owner deletes it instead)",
    may: ["collaborator"],
    status: 302,
    act: (w, a) => onGroupPage(w, a, { intent: "leave", confirm: "yes" }),
    effect: async (w) => expect(await membersOf(w)).toEqual([w.people.owner.id]),
  },
  {
    name: "delete the group (the Storyteller and answers stay)",
    may: OWNER,
    status: 302,
    act: (w, a) => onGroupPage(w, a, { intent: "delete", confirm: "yes" }),
    effect: async (w) => {
      expect(await groupRow(w)).toBeUndefined();
      expect(await database.db.selectFrom("answers").select("id").where("id", "=", w.answer.id).execute()).toHaveLength(
        1,
      );
    },
  },
  {
    name: "resend the pending invitation",
    may: OWNER,
    status: 302,
    act: (w, a) => onGroupPage(w, a, { intent: "resend", invitationId: w.invitationId }),
    effect: async (w) =>
      expect(
        await database.db
          .selectFrom("outbox_messages")
          .select("id")
          .where("to_address", "=", w.people.invited.email)
          .execute(),
      ).toHaveLength(1),
  },
  {
    name: "revoke the pending invitation",
    may: OWNER,
    status: 302,
    act: (w, a) => onGroupPage(w, a, { intent: "revoke", invitationId: w.invitationId, confirm: "yes" }),
    effect: async (w) => expect((await invitationRow(w))?.revoked_at).toBeInstanceOf(Date),
  },
  {
    name: "invite someone into the group (Invite someone)",
    may: OWNER,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        inviteSomeoneAction({
          request: post(a, "/dashboard/user/new", { email: "cousin@example.com", groupId: w.groupId }),
          context: w.ctx,
          params: {},
          ...routeArgs,
        }),
      ),
    effect: async (w) =>
      expect(
        await database.db
          .selectFrom("group_invitations")
          .select("id")
          .where("email", "=", "cousin@example.com")
          .where("group_id", "=", w.groupId)
          .execute(),
      ).toHaveLength(1),
  },
  {
    name: "put a new group around the Storyteller (Add Group, step 2)",
    may: OWNER,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        newGroupAction({
          request: post(a, "/dashboard/groups/new?step=2", { intent: "pick", storytellerId: w.storytellerId }),
          context: w.ctx,
          params: {},
          ...routeArgs,
        }),
      ),
  },
  {
    // The link is a capability: anyone holding it sees whose invitation it is (nothing changes).
    name: "open the invitation link",
    may: ALL,
    act: async (w, a) => {
      const token = await signCapability(w.ctx.config, "group-invite", w.invitationId);
      const result = (await invitationLoader({
        request: get(a, `/invitations/${token}`),
        context: w.ctx,
        params: { token },
        ...routeArgs,
      })) as unknown as { init: ResponseInit | null };
      return result.init?.status ?? 200;
    },
  },
  {
    // Only the invited address may accept. Anyone else is told which address to use (409), which the
    // link's holder may know; for the matrix that refusal counts as the 404 of "not allowed".
    name: "accept the invitation",
    may: ["invited"],
    status: 302,
    act: async (w, a) => {
      const token = await signCapability(w.ctx.config, "group-invite", w.invitationId);
      const status = await statusOf(() =>
        invitationAction({
          request: post(a, `/invitations/${token}`, {}),
          context: w.ctx,
          params: { token },
          ...routeArgs,
        }),
      );
      return status === 409 ? 404 : status;
    },
    effect: async (w) => expect(await membersOf(w)).toContain(w.people.invited.id),
  },
  // Keeping it forever (decision 023): export, book and listen links.
  {
    name: "open the keep page (export, book, listen links)",
    may: FAMILY,
    act: (w, a) =>
      statusOf(() =>
        keepLoader({
          request: get(a, `${storytellerPath(w)}/keep`),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
  },
  {
    name: "download the Storyteller's export at once",
    may: FAMILY,
    act: (w, a) =>
      statusOf(() =>
        exportAction({
          request: post(a, "/dashboard/keep/export", { scope: "storyteller", storytellerId: w.storytellerId }),
          context: w.ctx,
          params: {},
          ...routeArgs,
        }),
      ),
  },
  {
    name: "ask for the Storyteller's export to be built (a large one)",
    may: FAMILY,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        exportAction({
          request: post(a, "/dashboard/keep/export", { scope: "storyteller", storytellerId: w.storytellerId }),
          context: makeTestContext(database, { EXPORT_STREAM_MAX_MB: "0" }),
          params: {},
          ...routeArgs,
        }),
      ),
    effect: async (w, a) => {
      const rows = await database.db.selectFrom("keepsakes").selectAll().where("user_id", "=", a.id).execute();
      expect(rows).toEqual([expect.objectContaining({ kind: "export", storyteller_id: w.storytellerId })]);
    },
  },
  {
    name: "find the answer counted in one's export of everything",
    may: HEARERS,
    act: async (w, a) => {
      const page = await everythingLoader({
        request: get(a, "/dashboard/keep"),
        context: w.ctx,
        params: {},
        ...routeArgs,
      });
      return shown(page.summary.answers - page.summary.private > 0);
    },
  },
  {
    name: "find the private answer counted in one's export of everything (its Storyteller's alone)",
    may: STORYTELLER,
    act: async (w, a) => {
      const page = await everythingLoader({
        request: get(a, "/dashboard/keep"),
        context: w.ctx,
        params: {},
        ...routeArgs,
      });
      return shown(page.summary.private > 0);
    },
  },
  {
    name: "make a keepsake book",
    may: FAMILY,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        keepAction({
          request: post(a, `${storytellerPath(w)}/keep`, {
            intent: "book",
            title: "Nani's stories",
            paper: "a4",
            cover: "none",
            language: "en",
            include: w.answer.id,
          }),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
    effect: async (w, a) => {
      const rows = await database.db.selectFrom("keepsakes").selectAll().where("user_id", "=", a.id).execute();
      expect(rows).toEqual([
        expect.objectContaining({ kind: "book", options: expect.objectContaining({ answerIds: [w.answer.id] }) }),
      ]);
    },
  },
  {
    name: "make a book's print-ready files",
    may: FAMILY,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        keepAction({
          request: post(a, `${storytellerPath(w)}/keep`, {
            intent: "print",
            title: "Nani's stories",
            paper: "a4",
            cover: "none",
            language: "en",
            include: w.answer.id,
            trim: "6x9",
            binding: "hardcover",
          }),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
    effect: async (w, a) => {
      const rows = await database.db.selectFrom("keepsakes").selectAll().where("user_id", "=", a.id).execute();
      expect(rows).toEqual([
        expect.objectContaining({
          kind: "book",
          options: expect.objectContaining({
            answerIds: [w.answer.id],
            print: { trim: "6x9", binding: "hardcover" },
          }),
        }),
      ]);
    },
  },
  // Families answering back (decision 048).
  {
    name: "send a heart on an answer",
    may: FAMILY,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        timelineAction({
          request: post(a, "/dashboard/timeline?index", { intent: "heart", answerId: w.answer.id }),
          context: w.ctx,
          params: {},
          ...routeArgs,
        }),
      ),
    effect: async (w, a) => {
      const rows = await database.db.selectFrom("answer_reactions").selectAll().where("user_id", "=", a.id).execute();
      expect(rows).toEqual([expect.objectContaining({ answer_id: w.answer.id, kind: "heart" })]);
    },
  },
  {
    name: "leave a note on a private answer",
    may: NOBODY,
    act: (w, a) =>
      statusOf(() =>
        timelineAction({
          request: post(a, "/dashboard/timeline?index", { intent: "note", answerId: w.privateAnswer.id, note: "Hi" }),
          context: w.ctx,
          params: {},
          ...routeArgs,
        }),
      ),
  },
  {
    name: "turn off the Storyteller's evening message about hearts and notes",
    may: OWNER,
    status: 302,
    act: (w, a) =>
      statusOf(() =>
        familyNotesAction({
          request: post(a, `${storytellerPath(w)}/family-notes`, { familyNotes: "off" }),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      ),
    effect: async (w) => {
      const row = await database.db
        .selectFrom("storytellers")
        .select("reaction_digest_on")
        .where("id", "=", w.storytellerId)
        .executeTakeFirstOrThrow();
      expect(row.reaction_digest_on).toBe(false);
    },
  },
  {
    name: "stop a book's listen link",
    may: FAMILY,
    status: 302,
    arrange: async (w) => void (await createListenLink(database.db, { answerId: w.answer.id })),
    act: async (w, a) => {
      const link = await database.db.selectFrom("listen_links").select("id").executeTakeFirstOrThrow();
      return statusOf(() =>
        keepAction({
          request: post(a, `${storytellerPath(w)}/keep`, { intent: "revoke-link", linkId: link.id }),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      );
    },
    effect: async () => {
      const links = await database.db.selectFrom("listen_links").select("revoked_at").execute();
      expect(links).toEqual([{ revoked_at: expect.any(Date) }]);
    },
  },
  {
    name: "open a listen link /l/{token} from a book (a capability: whoever holds the book)",
    may: ALL,
    act: async (w, a) => {
      const link = await createListenLink(database.db, { answerId: w.answer.id });
      const token = await signCapability(w.ctx.config, "listen", link.id);
      const page = await statusOf(() =>
        listenPageLoader({ request: get(a, `/l/${token}`), context: w.ctx, params: { token }, ...routeArgs }),
      );
      const audio = await statusOf(() =>
        listenAudioLoader({ request: get(a, `/l/${token}/audio`), context: w.ctx, params: { token }, ...routeArgs }),
      );
      return page === audio ? page : 500;
    },
  },
  {
    name: "open a listen link to a private answer",
    may: NOBODY,
    arrange: async (w) => void (await createListenLink(database.db, { answerId: w.privateAnswer.id })),
    act: async (w, a) => {
      const link = await database.db.selectFrom("listen_links").select("id").executeTakeFirstOrThrow();
      const token = await signCapability(w.ctx.config, "listen", link.id);
      return statusOf(() =>
        listenAudioLoader({ request: get(a, `/l/${token}/audio`), context: w.ctx, params: { token }, ...routeArgs }),
      );
    },
  },
  // Answering by phone (decision 022): "press 2 to listen" is a capability of the call, not of a role.
  {
    name: "listen back to a caller's recording /phone/play/{token} during the call (a capability: the call's)",
    may: ALL,
    act: async (w, a) => {
      const recording = await createPhoneRecording(database.db, {
        storytellerId: w.storytellerId,
        promptId: w.ownersSecondPrompt.id,
        storage: w.ctx.storage,
      });
      const token = signPhonePlayback(w.ctx.config, { recordingId: recording.id, callSid: recording.call_sid });
      return statusOf(() =>
        phonePlaybackLoader({
          request: get(a, `/phone/play/${token}`),
          context: w.ctx,
          params: { token },
          ...routeArgs,
        }),
      );
    },
  },
  {
    name: "listen back to a caller's recording once it is kept or the call is over",
    may: NOBODY,
    act: async (w, a) => {
      const statuses: number[] = [];
      for (const options of [{ status: "kept" as const }, { ended: true }]) {
        const recording = await createPhoneRecording(database.db, {
          storytellerId: w.storytellerId,
          promptId: w.ownersSecondPrompt.id,
          storage: w.ctx.storage,
          ...options,
        });
        const token = signPhonePlayback(w.ctx.config, { recordingId: recording.id, callSid: recording.call_sid });
        statuses.push(
          await statusOf(() =>
            phonePlaybackLoader({
              request: get(a, `/phone/play/${token}`),
              context: w.ctx,
              params: { token },
              ...routeArgs,
            }),
          ),
        );
      }
      return statuses.every((status) => status === statuses[0]) ? statuses[0] : 500;
    },
  },
  {
    name: "download the owner's finished export (only who asked for it)",
    may: OWNER,
    arrange: async (w) => {
      await w.ctx.storage.put("keepsakes/matrix/export.zip", new Uint8Array([0x50, 0x4b, 5, 6]), "application/zip");
      await createKeepsake(database.db, {
        userId: w.people.owner.id,
        storytellerId: w.storytellerId,
        storageKey: "keepsakes/matrix/export.zip",
        byteSize: 4,
      });
    },
    act: async (w, a) => {
      const keepsake = await database.db.selectFrom("keepsakes").select("id").executeTakeFirstOrThrow();
      return statusOf(() =>
        keepsakeDownloadLoader({
          request: get(a, `/dashboard/keep/${keepsake.id}/download`),
          context: w.ctx,
          params: { id: keepsake.id },
          ...routeArgs,
        }),
      );
    },
  },
  // A removed member (decision 063): what they made while a member is checked against their access now.
  {
    name: "download the book one made of the Storyteller (while still a member)",
    may: FAMILY,
    arrange: (w) => keepsakesForEveryone(w, { kind: "book", storytellerId: w.storytellerId }),
    act: (w, a) => downloadOwnKeepsake(w, a),
  },
  {
    name: "download one's finished export of the Storyteller (while still a member)",
    may: FAMILY,
    arrange: (w) => keepsakesForEveryone(w, { kind: "export", storytellerId: w.storytellerId }),
    act: (w, a) => downloadOwnKeepsake(w, a),
  },
  {
    name: "download one's finished export of everything, which holds the Storyteller's answers",
    may: HEARERS,
    arrange: (w) => keepsakesForEveryone(w, { kind: "export", storytellerId: null, storytellerIds: [w.storytellerId] }),
    act: (w, a) => downloadOwnKeepsake(w, a),
  },
  {
    // Links given out are the family's, not their maker's: stopping the link stops them.
    name: "open a share link a member since removed made (a capability: whoever holds the link)",
    may: ALL,
    act: async (w, a) => {
      const link = await createShareLink(database.db, { answerId: w.answer.id, createdBy: w.people.removed.id });
      const token = await signCapability(w.ctx.config, "share", link.id);
      return statusOf(() =>
        shareAudioLoader({ request: get(a, `/s/${token}/audio`), context: w.ctx, params: { token }, ...routeArgs }),
      );
    },
  },
  {
    name: "open a listen link printed in a book a member since removed made (whoever holds the book)",
    may: ALL,
    act: async (w, a) => {
      const link = await createListenLink(database.db, { answerId: w.answer.id, createdBy: w.people.removed.id });
      const token = await signCapability(w.ctx.config, "listen", link.id);
      return statusOf(() =>
        listenAudioLoader({ request: get(a, `/l/${token}/audio`), context: w.ctx, params: { token }, ...routeArgs }),
      );
    },
  },
  {
    name: "stop a listen link a member since removed made (the owner or a member, on the keep page)",
    may: FAMILY,
    status: 302,
    arrange: async (w) =>
      void (await createListenLink(database.db, { answerId: w.answer.id, createdBy: w.people.removed.id })),
    act: async (w, a) => {
      const link = await database.db.selectFrom("listen_links").select("id").executeTakeFirstOrThrow();
      return statusOf(() =>
        keepAction({
          request: post(a, `${storytellerPath(w)}/keep`, { intent: "revoke-link", linkId: link.id }),
          context: w.ctx,
          params: { id: w.storytellerId },
          ...routeArgs,
        }),
      );
    },
    effect: async () => {
      const links = await database.db.selectFrom("listen_links").select("revoked_at").execute();
      expect(links).toEqual([{ revoked_at: expect.any(Date) }]);
    },
  },
];

/** Every row the people in the world could change, and whether the recordings are still stored. */
async function snapshot(w: World) {
  const db = database.db;
  const rows = await Promise.all([
    db.selectFrom("storytellers").selectAll().orderBy("id").execute(),
    db.selectFrom("schedules").selectAll().orderBy("storyteller_id").execute(),
    db.selectFrom("prompts").selectAll().orderBy("id").execute(),
    db.selectFrom("answers").selectAll().orderBy("id").execute(),
    db.selectFrom("share_links").selectAll().orderBy("id").execute(),
    db.selectFrom("keepsakes").selectAll().orderBy("id").execute(),
    db.selectFrom("answer_reactions").selectAll().orderBy("id").execute(),
    db.selectFrom("listen_links").selectAll().orderBy("id").execute(),
    db.selectFrom("deliveries").selectAll().orderBy("id").execute(),
    db.selectFrom("notifications").selectAll().orderBy("id").execute(),
    db.selectFrom("groups").selectAll().orderBy("id").execute(),
    db.selectFrom("group_members").selectAll().orderBy("group_id").orderBy("user_id").execute(),
    db.selectFrom("group_invitations").selectAll().orderBy("id").execute(),
    db.selectFrom("outbox_messages").selectAll().orderBy("id").execute(),
    sql`select task_id, payload, key from graphile_worker._private_jobs order by id`.execute(db).then((r) => r.rows),
  ]);
  const stored = await Promise.all(
    [w.answer.storage_key, w.privateAnswer.storage_key].map(async (key) => Boolean(await w.ctx.storage.head(key!))),
  );
  return JSON.stringify([rows, stored]);
}

/** A new world in an empty database, with the row's arrangement made. */
async function worldFor(row: Row) {
  await emptyDatabase();
  const w = await buildWorld();
  await row.arrange?.(w);
  return w;
}

describe("authorization matrix: roles × every route and action on a Storyteller", () => {
  for (const row of matrix) {
    describe(row.name, () => {
      // The refused roles of a row share one world: each proves by the snapshot that it changed
      // nothing, so the next refused role meets the same world. An allowed role changes it, so it
      // gets a world of its own (which empties the database: the shared one is built again after).
      let shared: World | undefined;
      for (const role of ROLES) {
        const allowed = row.may.includes(role);
        it(`${role}: ${allowed ? "allowed" : "404, nothing changed"}`, async () => {
          let w: World;
          if (allowed) {
            w = await worldFor(row);
            shared = undefined;
          } else w = shared ??= await worldFor(row);
          const before = await snapshot(w);
          const actor = w.people[role];
          const status = await row.act(w, actor);
          if (allowed) {
            expect(status).toBe(row.status ?? 200);
            await row.effect?.(w, actor);
          } else {
            expect(status).toBe(404);
            expect(await snapshot(w)).toBe(before);
          }
        });
      }
    });
  }
});

// Keeps the matrix honest about its own world: the roles are what they claim to be.
describe("the matrix's world", () => {
  it("has one membership per family role, a pending invitation, and a prompt added by the one who left", async () => {
    await emptyDatabase();
    const w = await buildWorld();
    const members = await database.db
      .selectFrom("group_members")
      .select(["user_id", "role"])
      .where("group_id", "=", w.groupId)
      .execute();
    expect(members.map((m) => m.user_id).sort()).toEqual([w.people.owner.id, w.people.collaborator.id].sort());
    const invitations = await database.db
      .selectFrom("group_invitations")
      .selectAll()
      .where("group_id", "=", w.groupId)
      .execute();
    expect(invitations).toEqual([
      expect.objectContaining({ email: w.people.invited.email, accepted_at: null, revoked_at: null }),
    ]);
    expect((await promptRow(w.leftsPrompt.id))?.created_by).toBe(w.people.left.id);
  });
});
