import { beforeEach, describe, expect, it, vi } from "vitest";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createGroup, createSelfStoryteller, createStoryteller, createUser } from "../../tests/factories";
import {
  createGroupFromDraft,
  getGroupDraft,
  groupableStorytellers,
  listGroupCards,
  saveGroupDraftStep,
} from "./group.server";

// The outbox is real, except when a test makes the n-th email fail, to show creation is all or nothing.
const outbox = vi.hoisted(() => ({ failOnCall: 0, calls: 0 }));
vi.mock("~/services/outbox.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/services/outbox.server")>();
  return {
    ...real,
    queueEmail: (...args: Parameters<typeof real.queueEmail>) => {
      outbox.calls += 1;
      if (outbox.calls === outbox.failOnCall) throw new Error("mail queue down");
      return real.queueEmail(...args);
    },
  };
});
beforeEach(() => {
  outbox.failOnCall = 0;
  outbox.calls = 0;
});

const database = useTestDatabase();
const db = () => database.db;
const context = () => makeTestContext(database);

async function owner(language: "en" | "hi" = "en") {
  const user = await createUser(db(), { first_name: "Meera", last_name: "Rao", language });
  return { ...user, last_name: "Rao" };
}

const newStoryteller = {
  nickname: "Dadi",
  firstName: "Savitri",
  deliveryMethod: "email" as const,
  email: "savitri@example.com",
  timeZone: "Asia/Kolkata",
  language: "hi" as const,
  firstPromptDate: "2099-01-01",
  frequency: "weekly" as const,
};
const details = { name: "Dadi's stories", description: "Everyone who misses Dadi" };

const counts = async (ownerId: string) => ({
  groups: (await db().selectFrom("groups").select("id").where("owner_id", "=", ownerId).execute()).length,
  members: (await db().selectFrom("group_members").select("group_id").where("user_id", "=", ownerId).execute()).length,
  storytellers: (await db().selectFrom("storytellers").select("id").where("owner_id", "=", ownerId).execute()).length,
  invitations: (await db().selectFrom("group_invitations").select("id").where("invited_by", "=", ownerId).execute())
    .length,
});

describe("the Storytellers a group can be made around", () => {
  it("are the user's own, never their is_self row nor anyone else's", async () => {
    const me = await owner();
    const other = await owner();
    const mine = await createStoryteller(db(), { ownerId: me.id, nickname: "Nani" });
    await createSelfStoryteller(db(), me);
    await createStoryteller(db(), { ownerId: other.id });
    expect((await groupableStorytellers(db(), me.id)).map((s) => s.id)).toEqual([mine.id]);
  });
});

describe("creating a group", () => {
  it("writes the new Storyteller, the group, the owner's membership, the invitations and their emails, and clears the draft", async () => {
    const me = await owner();
    await saveGroupDraftStep(db(), me.id, "details", details);
    const created = await createGroupFromDraft(context(), me, {
      details,
      storyteller: { newStoryteller },
      emails: ["ravi@example.com", "Tara@example.com"],
    });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const group = await db()
      .selectFrom("groups")
      .selectAll()
      .where("id", "=", created.groupId)
      .executeTakeFirstOrThrow();
    expect(group).toMatchObject({ owner_id: me.id, ...details });
    const storyteller = await db()
      .selectFrom("storytellers")
      .selectAll()
      .where("id", "=", group.storyteller_id)
      .executeTakeFirstOrThrow();
    expect(storyteller).toMatchObject({ owner_id: me.id, nickname: "Dadi", email: "savitri@example.com" });
    expect(
      await db().selectFrom("group_members").select(["user_id", "role"]).where("group_id", "=", group.id).execute(),
    ).toEqual([{ user_id: me.id, role: "owner" }]);
    const invitations = await db()
      .selectFrom("group_invitations")
      .selectAll()
      .where("group_id", "=", group.id)
      .orderBy("email")
      .execute();
    expect(invitations.map((i) => i.email).sort()).toEqual(["Tara@example.com", "ravi@example.com"].sort());
    for (const invitation of invitations) {
      const days = (invitation.expires_at.getTime() - invitation.created_at.getTime()) / 86_400_000;
      expect(Math.round(days)).toBe(30);
    }
    const emails = await db()
      .selectFrom("outbox_messages")
      .select(["to_address", "text_body"])
      .where("to_address", "in", ["ravi@example.com", "Tara@example.com"])
      .execute();
    expect(emails).toHaveLength(2);
    for (const email of emails)
      expect(email.text_body).toMatch(/http:\/\/localhost:3000\/invitations\/[\w-]+\.[\w-]+\.[\w-]+/);
    expect(await getGroupDraft(db(), me.id)).toEqual({});
  });

  it("writes nothing at all when a step fails midway (the second invitation's email)", async () => {
    const me = await owner();
    await saveGroupDraftStep(db(), me.id, "details", details);
    outbox.failOnCall = 2;
    await expect(
      createGroupFromDraft(context(), me, {
        details,
        storyteller: { newStoryteller },
        emails: ["midway.ravi@example.com", "midway.tara@example.com"],
      }),
    ).rejects.toThrow("mail queue down");
    expect(await counts(me.id)).toEqual({ groups: 0, members: 0, storytellers: 0, invitations: 0 });
    expect(
      await db()
        .selectFrom("outbox_messages")
        .select("id")
        .where("to_address", "=", "midway.ravi@example.com")
        .execute(),
    ).toEqual([]);
    expect(await getGroupDraft(db(), me.id)).toEqual({ details });
  });

  it("refuses a Storyteller the user does not own, or their is_self row, and writes nothing", async () => {
    const me = await owner();
    const other = await owner();
    const theirs = await createStoryteller(db(), { ownerId: other.id });
    const self = await createSelfStoryteller(db(), me);
    for (const storytellerId of [theirs.id, self.id]) {
      expect(
        await createGroupFromDraft(context(), me, { details, storyteller: { storytellerId }, emails: [] }),
      ).toEqual({
        ok: false,
        problem: "storyteller",
      });
    }
    expect(await counts(me.id)).toMatchObject({ groups: 0, members: 0 });
  });

  it("writes each invitation in the language of the user with that address, else the inviter's", async () => {
    const me = await owner("en");
    await createUser(db(), { email: "hindi.reader@example.com", language: "hi" });
    const mine = await createStoryteller(db(), { ownerId: me.id });
    await createGroupFromDraft(context(), me, {
      details,
      storyteller: { storytellerId: mine.id },
      emails: ["HINDI.reader@example.com", "stranger@example.com"],
    });
    const subjects = Object.fromEntries(
      (
        await db()
          .selectFrom("outbox_messages")
          .select(["to_address", "subject"])
          .where("to_address", "in", ["HINDI.reader@example.com", "stranger@example.com"])
          .execute()
      ).map((m) => [m.to_address, m.subject]),
    );
    expect(subjects["HINDI.reader@example.com"]).toContain("आमंत्रित");
    expect(subjects["stranger@example.com"]).toContain("invited you");
  });
});

describe("the overview's group cards", () => {
  it("lists each group the user belongs to with its Storyteller, initials and prompts, and nothing for anyone else", async () => {
    const me = await createUser(db(), { first_name: "Meera", last_name: "Rao" });
    const ravi = await createUser(db(), { first_name: "ravi", last_name: "shah" });
    const stranger = await createUser(db());
    const storyteller = await createStoryteller(db(), {
      ownerId: me.id,
      nickname: "Dadi",
      prompts: [{ text: "Sent one", sentAt: new Date() }, "Next one"],
    });
    const group = await createGroup(db(), { ownerId: me.id, storytellerId: storyteller.id, collaborators: [ravi.id] });
    const expected = {
      id: group.id,
      storyteller: "Dadi",
      initials: ["MR", "RS"],
      next_prompt: "Next one",
      last_sent_prompt: "Sent one",
    };
    expect(await listGroupCards(db(), me.id)).toEqual([expect.objectContaining({ ...expected, role: "owner" })]);
    expect(await listGroupCards(db(), ravi.id)).toEqual([
      expect.objectContaining({ ...expected, role: "collaborator" }),
    ]);
    expect(await listGroupCards(db(), stranger.id)).toEqual([]);
  });
});
