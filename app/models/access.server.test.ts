import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import {
  createGroup,
  createGroupInvitation,
  createPrompt,
  createStoryteller,
  createUser,
  deleteGroupMember,
} from "../../tests/factories";
import { editablePromptIds, storytellerRole } from "./access.server";

const database = useTestDatabase();

describe("storytellerRole", () => {
  it("is owner for the Storyteller's owner, collaborator for a group member, null for anyone else", async () => {
    const db = database.db;
    const [owner, member, groupRunner, invited, former, stranger] = await Promise.all(
      ["Ravi", "Meera", "Anil", "Isha", "Farah", "Omar"].map((first_name) => createUser(db, { first_name })),
    );
    const st = await createStoryteller(db, { ownerId: owner.id });
    const group = await createGroup(db, {
      ownerId: owner.id,
      storytellerId: st.id,
      collaborators: [member.id, former.id],
    });
    // Someone in a group's "owner" role runs the group; the Storyteller stays its owner's.
    const other = await createGroup(db, { ownerId: groupRunner.id, storytellerId: st.id });
    expect(other.id).not.toBe(group.id);
    await createGroupInvitation(db, { groupId: group.id, email: invited.email });
    await deleteGroupMember(db, group.id, former.id);

    const roles = await Promise.all(
      [owner, member, groupRunner, invited, former, stranger].map((u) => storytellerRole(db, u.id, st.id)),
    );
    expect(roles).toEqual(["owner", "collaborator", "collaborator", null, null, null]);
  });
});

describe("editablePromptIds", () => {
  it("holds every prompt of an owned Storyteller, and a member's own prompts only while they are a member", async () => {
    const db = database.db;
    const owner = await createUser(db);
    const member = await createUser(db);
    const st = await createStoryteller(db, { ownerId: owner.id, prompts: ["Where were you born?"] });
    const group = await createGroup(db, { ownerId: owner.id, storytellerId: st.id, collaborators: [member.id] });
    const theirs = await createPrompt(db, { storytellerId: st.id, createdBy: member.id });
    const nobodys = await createPrompt(db, { storytellerId: st.id, createdBy: null });
    const editable = async (userId: string) =>
      (await editablePromptIds(db, userId).where("prompts.storyteller_id", "=", st.id).execute())
        .map((r) => r.id)
        .sort();

    expect(await editable(owner.id)).toEqual([st.prompts[0].id, theirs.id, nobodys.id].sort());
    expect(await editable(member.id)).toEqual([theirs.id]);
    await deleteGroupMember(db, group.id, member.id);
    expect(await editable(member.id)).toEqual([]);
  });
});
