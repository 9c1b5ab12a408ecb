import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../tests/context";
import { get, outcome, post, replyErrorsOf, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { createGroup, createStoryteller } from "../../tests/factories";
import { action, loader } from "./dashboard.user.new";

const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;
const invite = (user: User, fields: Record<string, string | string[]>) =>
  outcome(() =>
    action({
      request: post(user.jar, "/dashboard/user/new", fields),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    }),
  );
const invitationsTo = (email: string) =>
  database.db.selectFrom("group_invitations").select(["group_id", "invited_by"]).where("email", "=", email).execute();

describe("Invite someone, into one of my groups", () => {
  it("offers the groups the user owns, and invites into one as Add Group does", async () => {
    const owner = await signedInUser(database);
    const collaborator = await signedInUser(database);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const group = await createGroup(database.db, {
      ownerId: owner.id,
      storytellerId: storyteller.id,
      collaborators: [collaborator.id],
      name: "Mine",
    });
    const page = await outcome(() =>
      loader({
        request: get(owner.jar, "/dashboard/user/new"),
        context: makeTestContext(database),
        params: {},
        ...routeArgs,
      }),
    );
    expect((page.data as { groups: unknown[] }).groups).toEqual([{ id: group.id, name: "Mine" }]);

    expect(await invite(owner, { email: "into.group@example.com", groupId: group.id })).toMatchObject({ status: 302 });
    expect(await invitationsTo("into.group@example.com")).toEqual([{ group_id: group.id, invited_by: owner.id }]);
    expect(
      await database.db
        .selectFrom("outbox_messages")
        .select("text_body")
        .where("to_address", "=", "into.group@example.com")
        .execute(),
    ).toEqual([{ text_body: expect.stringContaining("/invitations/") }]);

    // A collaborator may not invite into someone else's group.
    const refused = await invite(collaborator, { email: "sneaky@example.com", groupId: group.id });
    expect(refused.status).toBe(404);
    expect(await invitationsTo("sneaky@example.com")).toEqual([]);

    const own = await invite(owner, { email: "into.group@example.com", groupId: group.id });
    expect(own.status).toBe(302);
    const self = await database.db
      .selectFrom("users")
      .select("email")
      .where("id", "=", collaborator.id)
      .executeTakeFirstOrThrow();
    const member = await invite(owner, { email: self.email, groupId: group.id });
    expect(replyErrorsOf(member.data)).toEqual({ email: ["groups:errors.alreadyMember"] });
  });

  it("takes one address a post: several in one are refused with their own message, nothing sent", async () => {
    const owner = await signedInUser(database);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id });
    const group = await createGroup(database.db, { ownerId: owner.id, storytellerId: storyteller.id });
    const addresses = Array.from({ length: 25 }, (_, i) => `many${i}.one-post@example.com`);
    for (const groupId of [group.id, ""]) {
      const refused = await invite(owner, { email: addresses, groupId });
      expect(refused.status).toBe(400);
      expect(replyErrorsOf(refused.data)).toEqual({ email: ["groups:errors.oneAddress"] });
    }
    expect(
      await database.db
        .selectFrom("outbox_messages")
        .select("id")
        .where("to_address", "like", "%.one-post@example.com")
        .execute(),
    ).toEqual([]);
    expect(await invitationsTo(addresses[0])).toEqual([]);
  });

  it("without a group, invites to Heirloom only", async () => {
    const user = await signedInUser(database);
    expect(await invite(user, { email: "plain.invite@example.com", groupId: "" })).toMatchObject({ status: 302 });
    expect(await invitationsTo("plain.invite@example.com")).toEqual([]);
    expect(
      await database.db.selectFrom("user_invitations").select("email").where("invited_by", "=", user.id).execute(),
    ).toEqual([{ email: "plain.invite@example.com" }]);
  });
});
