import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import {
  createGroup,
  createSelfStoryteller,
  createStoryteller,
  createUser,
  deleteGroupMember,
} from "../../tests/factories";
import { getSidebarCounts } from "./sidebar.server";

const database = useTestDatabase();

describe("the sidebar's Storytellers count", () => {
  it("is the user's own Storytellers plus the groups they belong to, and nothing of anyone else's", async () => {
    const owner = await createUser(database.db);
    const collaborator = await createUser(database.db);
    const stranger = await createUser(database.db);
    const [nani] = [
      await createStoryteller(database.db, { ownerId: owner.id }),
      await createStoryteller(database.db, { ownerId: owner.id }),
    ];
    await createGroup(database.db, { ownerId: owner.id, storytellerId: nani.id, collaborators: [collaborator.id] });

    expect((await getSidebarCounts(database.db, owner.id)).storytellers).toBe(3);
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
