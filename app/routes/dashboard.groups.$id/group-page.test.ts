import { beforeEach, describe, expect, it, vi } from "vitest";
import { getServerT } from "~/i18n/i18next.server";
import { storytellerRole, visibleStorytellerIds } from "~/models/access.server";
import { getStorytellerView } from "~/models/prompt.server";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, replyErrorsOf, signedInUser, toastKeysOf } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import {
  addGroupMembers,
  createAnswer,
  createGroup,
  createGroupInvitation,
  createKeepsake,
  createNotifications,
  createStoryteller,
  deleteGroupMember,
} from "../../../tests/factories";
import { allowConsoleErrors } from "../../../tests/setup/fail-on-console-error";
import { action, loader } from "./route";

// The model is real, except when a test makes saving the group's details fail.
const failing = vi.hoisted(() => ({ update: false }));
vi.mock("~/models/group.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/models/group.server")>();
  return {
    ...real,
    updateGroupDetails: (...args: Parameters<typeof real.updateGroupDetails>) => {
      if (failing.update) throw new Error("database down");
      return real.updateGroupDetails(...args);
    },
  };
});
beforeEach(() => {
  failing.update = false;
});

const database = useTestDatabase();
const db = () => database.db;

type User = Awaited<ReturnType<typeof signedInUser>>;
const open = (user: User, groupId: string, query = "") =>
  outcome(() =>
    loader({
      request: get(user.jar, `/dashboard/groups/${groupId}${query}`),
      context: makeTestContext(database),
      params: { id: groupId },
      ...routeArgs,
    }),
  );
const send = (user: User, groupId: string, fields: Record<string, string>) =>
  outcome(() =>
    action({
      request: post(user.jar, `/dashboard/groups/${groupId}`, fields),
      context: makeTestContext(database),
      params: { id: groupId },
      ...routeArgs,
    }),
  );

/** Whether the user may see the Storyteller, as every Storyteller query asks it (and the Storyteller's page). */
async function sees(userId: string, storytellerId: string) {
  const visible = (await visibleStorytellerIds(db(), userId).execute()).map((r) => r.id);
  const view = await getStorytellerView(db(), userId, storytellerId);
  expect(view !== null).toBe(visible.includes(storytellerId));
  return visible.includes(storytellerId);
}

type Page = { page: { role: string; members: { id: string }[]; invitations: { id: string }[] }; confirm: unknown };

async function family() {
  const owner = await signedInUser(database, { first_name: "Meera" });
  const collaborator = await signedInUser(database, { first_name: "Ravi" });
  const stranger = await signedInUser(database);
  const storyteller = await createStoryteller(db(), { ownerId: owner.id });
  const group = await createGroup(db(), {
    ownerId: owner.id,
    storytellerId: storyteller.id,
    collaborators: [collaborator.id],
  });
  const invitation = await createGroupInvitation(db(), {
    groupId: group.id,
    email: "pending.page@example.com",
    invitedBy: owner.id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { owner, collaborator, stranger, storyteller, group, invitation };
}

describe("a group's page", () => {
  it("shows the owner its members and pending invitations, a collaborator its members only, anyone else a 404", async () => {
    const { owner, collaborator, stranger, group, invitation } = await family();
    const mine = (await open(owner, group.id)).data as Page;
    expect(mine.page.role).toBe("owner");
    expect(mine.page.members.map((m) => m.id)).toEqual([owner.id, collaborator.id]);
    expect(mine.page.invitations.map((i) => i.id)).toEqual([invitation.id]);
    const theirs = (await open(collaborator, group.id)).data as Page;
    expect(theirs.page).toMatchObject({ role: "collaborator", invitations: [] });
    expect((await open(stranger, group.id)).status).toBe(404);
    expect((await open(stranger, "not-a-uuid")).status).toBe(404);
    for (const intent of ["delete", "leave"])
      expect((await send(stranger, group.id, { intent, confirm: "yes" })).status).toBe(404);
  });

  it("asks before deleting only the owner, before leaving only a collaborator", async () => {
    const { owner, collaborator, group } = await family();
    expect(((await open(owner, group.id, "?confirm=delete")).data as Page).confirm).toEqual({ intent: "delete" });
    expect(((await open(collaborator, group.id, "?confirm=delete")).data as Page).confirm).toBeNull();
    expect(((await open(collaborator, group.id, "?confirm=leave")).data as Page).confirm).toEqual({ intent: "leave" });
  });

  it('says "Group updated" or "Group couldn\'t be updated"', async () => {
    const { owner, group } = await family();
    const rename = (name: string) =>
      toastKeysOf(
        () =>
          action({
            request: post(owner.jar, `/dashboard/groups/${group.id}`, {
              intent: "update",
              name,
              description: "Stories of the Rao family",
            }),
            context: makeTestContext(database),
            params: { id: group.id },
            ...routeArgs,
          }),
        makeTestContext(database).config,
      );
    expect(await rename("The Raos")).toEqual(["groups:toast.updated"]);
    failing.update = true;
    allowConsoleErrors(1);
    expect(await rename("Not saved")).toEqual(["groups:toast.updateFailed"]);
    expect(await db().selectFrom("groups").select("name").where("id", "=", group.id).executeTakeFirst()).toEqual({
      name: "The Raos",
    });
  });

  it("lets the owner rename it, with the validation messages, and no one else", async () => {
    const { owner, collaborator, group } = await family();
    const refused = await send(owner, group.id, { intent: "update", name: "X", description: "D".repeat(61) });
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({ name: ["validation.tooShort"], description: ["validation.tooLong"] });
    expect(
      await send(owner, group.id, { intent: "update", name: "The Raos", description: "Stories of the Rao family" }),
    ).toMatchObject({ status: 302, location: `/dashboard/groups/${group.id}` });
    expect(
      await send(collaborator, group.id, { intent: "update", name: "Taken", description: "Taken over by Ravi" }),
    ).toMatchObject({ status: 404 });
    expect(
      await db().selectFrom("groups").select(["name", "description"]).where("id", "=", group.id).executeTakeFirst(),
    ).toEqual({
      name: "The Raos",
      description: "Stories of the Rao family",
    });
  });

  it("removes a collaborator only once confirmed, ending their access and notifications at once", async () => {
    const { owner, collaborator, group, storyteller } = await family();
    await createNotifications(db(), { userId: collaborator.id, storytellerId: storyteller.id });
    expect((await send(owner, group.id, { intent: "remove", memberId: collaborator.id })).status).toBe(400);
    expect(await sees(collaborator.id, storyteller.id)).toBe(true);
    expect((await send(collaborator, group.id, { intent: "remove", memberId: owner.id, confirm: "yes" })).status).toBe(
      404,
    );
    expect((await send(owner, group.id, { intent: "remove", memberId: owner.id, confirm: "yes" })).status).toBe(404);

    expect(await send(owner, group.id, { intent: "remove", memberId: collaborator.id, confirm: "yes" })).toMatchObject({
      status: 302,
      location: `/dashboard/groups/${group.id}`,
    });
    expect(await sees(collaborator.id, storyteller.id)).toBe(false);
    expect(
      await db().selectFrom("notifications").select("id").where("user_id", "=", collaborator.id).execute(),
    ).toEqual([]);
    expect((await open(collaborator, group.id)).status).toBe(404);
  });

  it("tells the owner, before removing someone who made a book, that their downloads stop and its printed links play on", async () => {
    const { owner, collaborator, group, storyteller } = await family();
    const ask = `?confirm=remove&target=${collaborator.id}`;
    expect(((await open(owner, group.id, ask)).data as Page).confirm).toEqual({
      intent: "remove",
      targetId: collaborator.id,
      label: "Ravi",
      books: 0,
    });
    await createKeepsake(db(), { userId: collaborator.id, storytellerId: storyteller.id, kind: "book" });
    const { confirm } = (await open(owner, group.id, ask)).data as Page & { confirm: { books: number } };
    expect(confirm.books).toBe(1);
    const said = async (language: "en" | "hi") =>
      (await getServerT(language, makeTestContext(database), "groups"))("page.confirm.removeBooks", {
        name: "Ravi",
        storyteller: "Nani",
        count: confirm.books,
      });
    expect(await said("en")).toBe(
      "Ravi has made a book of Nani's stories. Once removed, they can no longer download it. The QR codes printed in it keep playing for whoever holds the book, until you stop its listen links.",
    );
    expect(await said("hi")).toMatch(/^Ravi ने Nani की कहानियों की एक किताब बनाई है। हटाने के बाद वे उसे डाउनलोड नहीं/);
  });

  it("lets a collaborator leave (not the owner), ending their access at once", async () => {
    const { owner, collaborator, group, storyteller } = await family();
    expect((await send(owner, group.id, { intent: "leave", confirm: "yes" })).status).toBe(404);
    expect(await send(collaborator, group.id, { intent: "leave", confirm: "yes" })).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    expect(await sees(collaborator.id, storyteller.id)).toBe(false);
    expect((await open(collaborator, group.id)).status).toBe(404);
    expect((await send(collaborator, group.id, { intent: "leave", confirm: "yes" })).status).toBe(404);
  });

  it("keeps notifications of someone who still sees the Storyteller through another group", async () => {
    const { owner, collaborator, group, storyteller } = await family();
    const other = await createGroup(db(), { ownerId: owner.id, storytellerId: storyteller.id, name: "Cousins" });
    await addGroupMembers(db(), other.id, [{ userId: collaborator.id }]);
    await createNotifications(db(), { userId: collaborator.id, storytellerId: storyteller.id });
    await send(collaborator, group.id, { intent: "leave", confirm: "yes" });
    expect(await storytellerRole(db(), collaborator.id, storyteller.id)).toBe("collaborator");
    expect(
      await db().selectFrom("notifications").select("id").where("user_id", "=", collaborator.id).execute(),
    ).toHaveLength(1);
  });

  it("resends an invitation as the same row with a fresh 30 days and a new email, and revokes one once confirmed", async () => {
    const { owner, collaborator, group, invitation } = await family();
    expect((await send(collaborator, group.id, { intent: "resend", invitationId: invitation.id })).status).toBe(404);
    expect(await send(owner, group.id, { intent: "resend", invitationId: invitation.id })).toMatchObject({
      status: 302,
    });
    const rows = await db().selectFrom("group_invitations").selectAll().where("group_id", "=", group.id).execute();
    expect(rows.map((r) => r.id)).toEqual([invitation.id]);
    expect(Math.round((rows[0].expires_at.getTime() - Date.now()) / 86_400_000)).toBe(30);
    expect(
      await db().selectFrom("outbox_messages").select("id").where("to_address", "=", invitation.email).execute(),
    ).toHaveLength(1);

    expect((await send(owner, group.id, { intent: "revoke", invitationId: invitation.id })).status).toBe(400);
    expect(
      (await send(collaborator, group.id, { intent: "revoke", invitationId: invitation.id, confirm: "yes" })).status,
    ).toBe(404);
    expect(
      await send(owner, group.id, { intent: "revoke", invitationId: invitation.id, confirm: "yes" }),
    ).toMatchObject({
      status: 302,
    });
    const revoked = await db()
      .selectFrom("group_invitations")
      .select("revoked_at")
      .where("id", "=", invitation.id)
      .executeTakeFirstOrThrow();
    expect(revoked.revoked_at).toBeInstanceOf(Date);
    expect((await send(owner, group.id, { intent: "resend", invitationId: invitation.id })).status).toBe(404);
  });

  it("is deleted by its owner only once confirmed; the Storyteller and answers stay, collaborators lose access", async () => {
    const { owner, collaborator, group, storyteller } = await family();
    const answer = await createAnswer(db(), { storytellerId: storyteller.id });
    expect((await send(owner, group.id, { intent: "delete" })).status).toBe(400);
    expect((await send(collaborator, group.id, { intent: "delete", confirm: "yes" })).status).toBe(404);
    expect(await send(owner, group.id, { intent: "delete", confirm: "yes" })).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    expect(await db().selectFrom("groups").select("id").where("id", "=", group.id).execute()).toEqual([]);
    expect(await db().selectFrom("storytellers").select("id").where("id", "=", storyteller.id).execute()).toHaveLength(
      1,
    );
    expect(await db().selectFrom("answers").select("id").where("id", "=", answer.id).execute()).toHaveLength(1);
    expect(await sees(collaborator.id, storyteller.id)).toBe(false);
    expect(await storytellerRole(db(), owner.id, storyteller.id)).toBe("owner");
  });

  it("is a 404 for a member removed earlier", async () => {
    const { collaborator, group } = await family();
    await deleteGroupMember(db(), group.id, collaborator.id);
    expect((await open(collaborator, group.id)).status).toBe(404);
  });
});
