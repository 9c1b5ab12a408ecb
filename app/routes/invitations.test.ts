import { describe, expect, it } from "vitest";
import { storytellerRole } from "~/models/access.server";
import { deleteGroup, removeGroupMember, resendInvitation } from "~/models/group.server";
import { signCapability } from "~/services/tokens.server";
import { makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { get, outcome, post, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { createGroup, createGroupInvitation, createStoryteller, createUser } from "../../tests/factories";
import { action, loader } from "./_public.invitations.$token";

const database = useTestDatabase();
const context = () => makeTestContext(database);
const tokenFor = (invitationId: string) => signCapability(context().config, "group-invite", invitationId);

type Jar = CookieJar;
const open = async (jar: Jar, token: string) => {
  const result = (await loader({
    request: get(jar, `/invitations/${token}`),
    context: context(),
    params: { token },
    ...routeArgs,
  })) as unknown as { data: Record<string, unknown>; init: ResponseInit | null };
  return { status: result.init?.status ?? 200, headers: new Headers(result.init?.headers), data: result.data };
};
const accept = (jar: Jar, token: string) =>
  outcome(() =>
    action({ request: post(jar, `/invitations/${token}`, {}), context: context(), params: { token }, ...routeArgs }),
  );

async function invitation(options: { expiresAt?: Date; revokedAt?: Date } = {}) {
  const owner = await createUser(database.db, { first_name: "Meera", last_name: "Rao" });
  const storyteller = await createStoryteller(database.db, { ownerId: owner.id, nickname: "Dadi" });
  const group = await createGroup(database.db, {
    ownerId: owner.id,
    storytellerId: storyteller.id,
    name: "Dadi's circle",
  });
  const invitee = await signedInUser(database);
  const email = (
    await database.db.selectFrom("users").select("email").where("id", "=", invitee.id).executeTakeFirstOrThrow()
  ).email;
  const row = await createGroupInvitation(database.db, {
    groupId: group.id,
    email: email.toUpperCase(),
    invitedBy: owner.id,
    ...options,
  });
  return { owner, storyteller, group, invitee, row, token: await tokenFor(row.id) };
}
const rowOf = (id: string) =>
  database.db.selectFrom("group_invitations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("an invitation link", () => {
  it("shows the group and who invited, as a capability page, and opening it changes nothing", async () => {
    const { invitee, row, token, storyteller } = await invitation();
    const page = await open(invitee.jar, token);
    expect(page.status).toBe(200);
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer, strict-origin");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.data).toMatchObject({
      found: true,
      status: "open",
      groupName: "Dadi's circle",
      storyteller: "Dadi",
      inviter: "Meera Rao",
      sameAddress: true,
    });
    expect((await rowOf(row.id)).accepted_at).toBeNull();
    expect(await storytellerRole(database.db, invitee.id, storyteller.id)).toBeNull();
  });

  it("is a 404 when tampered with, made for another purpose, or its group is gone", async () => {
    const { owner, invitee, row, token, group } = await invitation();
    const [header, payload, signature] = token.split(".");
    const tampered = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    const otherPurpose = await signCapability(context().config, "share", row.id);
    for (const bad of [tampered, otherPurpose, "nonsense"]) {
      expect((await open(invitee.jar, bad)).status).toBe(404);
      expect((await accept(invitee.jar, bad)).status).toBe(404);
    }
    expect(await deleteGroup(database.db, owner.id, group.id)).toBe(true);
    expect((await open(invitee.jar, token)).status).toBe(404);
    expect((await accept(invitee.jar, token)).status).toBe(404);
  });

  it("sends someone signed out to sign in and back, and accepts nothing", async () => {
    const { row, token } = await invitation();
    const signedOut = new CookieJar();
    expect((await open(signedOut, token)).data).toMatchObject({
      signedInAs: null,
      registerUrl: expect.stringContaining(`redirectTo=%2Finvitations%2F${token}`),
    });
    expect(await accept(signedOut, token)).toMatchObject({
      status: 302,
      location: `/auth/login?redirectTo=%2Finvitations%2F${token}`,
    });
    expect((await rowOf(row.id)).accepted_at).toBeNull();
  });

  it("refuses another signed-in address, naming the one to use", async () => {
    const { row, token, storyteller } = await invitation();
    const someoneElse = await signedInUser(database);
    expect((await open(someoneElse.jar, token)).data).toMatchObject({ sameAddress: false, email: row.email });
    expect(await accept(someoneElse.jar, token)).toMatchObject({ status: 409, data: { problem: "wrong-email" } });
    expect((await rowOf(row.id)).accepted_at).toBeNull();
    expect(await storytellerRole(database.db, someoneElse.id, storyteller.id)).toBeNull();
  });

  it("makes the invited address a collaborator at once, lands in the group, and then says it was accepted", async () => {
    const { invitee, row, token, storyteller, group } = await invitation();
    expect((await open(invitee.jar, token)).data).toMatchObject({ storytellerUrl: null });
    expect(await accept(invitee.jar, token)).toMatchObject({ status: 302, location: `/dashboard/groups/${group.id}` });
    expect((await rowOf(row.id)).accepted_at).toBeInstanceOf(Date);
    expect(await storytellerRole(database.db, invitee.id, storyteller.id)).toBe("collaborator");
    expect(
      await database.db
        .selectFrom("group_members")
        .select("role")
        .where("group_id", "=", group.id)
        .where("user_id", "=", invitee.id)
        .execute(),
    ).toEqual([{ role: "collaborator" }]);
    expect((await open(invitee.jar, token)).data).toMatchObject({
      status: "accepted",
      storytellerUrl: `/dashboard/recipient/${storyteller.id}`,
    });
    expect(await accept(invitee.jar, token)).toMatchObject({ status: 409, data: { problem: "accepted" } });
    // Anyone else holding the link learns only that it was accepted.
    const someoneElse = await signedInUser(database);
    expect((await open(someoneElse.jar, token)).data).toMatchObject({ status: "accepted", storytellerUrl: null });
    expect((await open(new CookieJar(), token)).data).toMatchObject({ status: "accepted", storytellerUrl: null });
  });

  it("says so when revoked or expired, and accepts neither", async () => {
    const revoked = await invitation({ revokedAt: new Date() });
    expect((await open(revoked.invitee.jar, revoked.token)).data).toMatchObject({ status: "revoked" });
    expect(await accept(revoked.invitee.jar, revoked.token)).toMatchObject({
      status: 409,
      data: { problem: "revoked" },
    });

    const expired = await invitation({ expiresAt: new Date(Date.now() - 1000) });
    expect((await open(expired.invitee.jar, expired.token)).data).toMatchObject({ status: "expired" });
    expect(await accept(expired.invitee.jar, expired.token)).toMatchObject({
      status: 409,
      data: { problem: "expired" },
    });
    for (const { invitee, storyteller } of [revoked, expired])
      expect(await storytellerRole(database.db, invitee.id, storyteller.id)).toBeNull();
  });

  it("is open again after an expired invitation is sent again (the same row and link, 30 more days)", async () => {
    const { owner, invitee, row, token, group, storyteller } = await invitation({
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await open(invitee.jar, token)).data).toMatchObject({ status: "expired" });
    const inviter = { ...owner, last_name: "Rao" };
    expect(await resendInvitation(context(), inviter, group.id, row.id)).toBe(true);
    expect((await open(invitee.jar, token)).data).toMatchObject({ status: "open" });
    expect(await accept(invitee.jar, token)).toMatchObject({ status: 302 });
    expect(await storytellerRole(database.db, invitee.id, storyteller.id)).toBe("collaborator");
  });

  it("does not let someone who left or was removed back in through their accepted link", async () => {
    for (const how of ["left", "removed"] as const) {
      const { owner, invitee, token, group, storyteller } = await invitation();
      await accept(invitee.jar, token);
      const by = how === "left" ? invitee.id : owner.id;
      expect(await removeGroupMember(database.db, by, group.id, invitee.id)).toBe(true);
      expect((await open(invitee.jar, token)).data).toMatchObject({ status: "accepted", storytellerUrl: null });
      expect(await accept(invitee.jar, token)).toMatchObject({ status: 409, data: { problem: "accepted" } });
      expect(await storytellerRole(database.db, invitee.id, storyteller.id)).toBeNull();
    }
  });
});
