import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import {
  createAnswer,
  createGroup,
  createNotifications,
  createSelfStoryteller,
  createStoryteller,
  createUser,
  deleteGroupMember,
} from "../../tests/factories";
import { getMyStories } from "./my-stories.server";
import { listNotifications } from "./notification.server";
import { getSidebarCounts } from "./sidebar.server";
import { listStorytellerCards } from "./storyteller.server";

const database = useTestDatabase();

describe("the sidebar's Storytellers count", () => {
  it("is every Storyteller the user may see, each once, and nothing of anyone else's", async () => {
    const owner = await createUser(database.db);
    const collaborator = await createUser(database.db);
    const stranger = await createUser(database.db);
    const [nani] = [
      await createStoryteller(database.db, { ownerId: owner.id }),
      await createStoryteller(database.db, { ownerId: owner.id }),
    ];
    await createGroup(database.db, { ownerId: owner.id, storytellerId: nani.id, collaborators: [collaborator.id] });

    // Two Storytellers, one of them with a group: two, as the overview shows two cards.
    expect((await getSidebarCounts(database.db, owner.id)).storytellers).toBe(2);
    expect((await getSidebarCounts(database.db, collaborator.id)).storytellers).toBe(1);
    expect((await getSidebarCounts(database.db, stranger.id)).storytellers).toBe(0);
  });

  it("leaves out the user's is_self row, and follows groups joined and left", async () => {
    const owner = await createUser(database.db);
    const member = await createUser(database.db);
    await createSelfStoryteller(database.db, member);
    expect((await getSidebarCounts(database.db, member.id)).storytellers).toBe(0);
    const nani = await createStoryteller(database.db, { ownerId: owner.id });
    const group = await createGroup(database.db, {
      ownerId: owner.id,
      storytellerId: nani.id,
      collaborators: [member.id],
    });
    expect((await getSidebarCounts(database.db, member.id)).storytellers).toBe(1);
    await deleteGroupMember(database.db, group.id, member.id);
    expect((await getSidebarCounts(database.db, member.id)).storytellers).toBe(0);
  });
});

describe("each count agrees with the rows its page shows (decision 050)", () => {
  it("Storytellers: one Storyteller and a group for her is one, as on the overview, for owner and collaborator", async () => {
    const owner = await createUser(database.db);
    const collaborator = await createUser(database.db);
    const rose = await createStoryteller(database.db, { ownerId: owner.id });
    const before = await listStorytellerCards(database.db, owner.id);
    expect((await getSidebarCounts(database.db, owner.id)).storytellers).toBe(before.length);
    await createGroup(database.db, { ownerId: owner.id, storytellerId: rose.id, collaborators: [collaborator.id] });
    // A second group for her still shows her once.
    await createGroup(database.db, { ownerId: owner.id, storytellerId: rose.id, name: "Cousins" });
    for (const user of [owner, collaborator]) {
      const cards = await listStorytellerCards(database.db, user.id);
      expect(cards.map((card) => card.id)).toEqual([rose.id]);
      expect((await getSidebarCounts(database.db, user.id)).storytellers).toBe(cards.length);
    }
  });

  it("My Stories: the stories its page lists, own and answered for the user's address, nobody else's", async () => {
    const me = await createUser(database.db, { email: "Asha@Example.com" });
    const other = await createUser(database.db);
    const self = await createSelfStoryteller(database.db, me);
    await createAnswer(database.db, { storytellerId: self.id });
    // Someone asked me by email: my answer counts; their other Storyteller's answer does not.
    const asked = await createStoryteller(database.db, { ownerId: other.id, email: "asha@example.com" });
    await createAnswer(database.db, { storytellerId: asked.id, recordedForEmail: "asha@example.com" });
    const stranger = await createStoryteller(database.db, { ownerId: other.id });
    await createAnswer(database.db, { storytellerId: stranger.id });

    const page = await getMyStories(database.db, me);
    expect(page.stories).toHaveLength(2);
    expect((await getSidebarCounts(database.db, me.id)).myStories).toBe(page.stories.length);
    expect((await getSidebarCounts(database.db, other.id)).myStories).toBe(0);
  });

  it("the bell: its badge is the unread items its list holds", async () => {
    const owner = await createUser(database.db);
    const rose = await createStoryteller(database.db, { ownerId: owner.id });
    const promptId = rose.prompts[0].id;
    for (const type of ["uploaded", "new", "listened", "skipped", "queue_empty"])
      await createNotifications(database.db, { userId: owner.id, type, storytellerId: rose.id, promptId });
    await createNotifications(database.db, { userId: owner.id, type: "uploaded", isNew: false });
    const unreadShown = (await listNotifications(database.db, owner.id, 50)).filter((n) => n.isNew);
    expect(unreadShown).toHaveLength(3);
    expect((await getSidebarCounts(database.db, owner.id)).unreadNotifications).toBe(unreadShown.length);
  });
});
