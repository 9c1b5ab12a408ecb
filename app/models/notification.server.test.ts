import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import {
  addGroupMembers,
  createGroup,
  createNotifications,
  createStoryteller,
  createUser,
} from "../../tests/factories";
import {
  listNotifications,
  markRead,
  notifyStorytellerEvent,
  unreadCount,
  unreadCountQuery,
} from "./notification.server";

const database = useTestDatabase();
beforeEach(async () => {
  await sql`truncate users, outbox_messages cascade`.execute(database.db);
  await sql`delete from graphile_worker._private_jobs`.execute(database.db);
});
const config = () => makeTestContext(database).config;

/** An owner with a Storyteller, a group for that Storyteller with one collaborator, and an outsider. */
async function family(db: Db) {
  const owner = await createUser(db, { first_name: "Ravi" });
  const collaborator = await createUser(db, { first_name: "Meera", language: "hi" });
  const outsider = await createUser(db, { first_name: "Omar" });
  const storyteller = await createStoryteller(db, {
    ownerId: owner.id,
    prompts: ["Tell me about your first home.", "What games did you play?"],
  });
  await createGroup(db, { ownerId: owner.id, storytellerId: storyteller.id, collaborators: [collaborator.id] });
  // The outsider has a Storyteller of their own, which must not matter.
  await createStoryteller(db, { ownerId: outsider.id });
  return { owner, collaborator, outsider, storyteller, prompt: storyteller.prompts[0] };
}

const notesOf = (userId: string) =>
  database.db.selectFrom("notifications").selectAll().where("user_id", "=", userId).execute();
const emailsTo = (address: string) =>
  database.db.selectFrom("outbox_messages").selectAll().where("to_address", "=", address).execute();

describe("notifyStorytellerEvent", () => {
  it("writes one row for the owner and one for each group member (once each), none for anyone else", async () => {
    const { owner, collaborator, outsider, storyteller, prompt } = await family(database.db);
    await notifyStorytellerEvent(database.db, config(), {
      type: "skipped",
      storytellerId: storyteller.id,
      promptId: prompt.id,
    });

    for (const person of [owner, collaborator]) {
      expect(await notesOf(person.id)).toEqual([
        expect.objectContaining({
          type: "skipped",
          storyteller_id: storyteller.id,
          prompt_id: prompt.id,
          is_new: true,
        }),
      ]);
    }
    expect(await notesOf(outsider.id)).toEqual([]);
    // Only "uploaded" sends email.
    expect(await database.db.selectFrom("outbox_messages").select("id").execute()).toEqual([]);
  });

  it("emails an upload to those with Activity on, each in their own language, with a link to the Sent tab", async () => {
    const { owner, collaborator, outsider, storyteller, prompt } = await family(database.db);
    const quiet = await createUser(database.db, { first_name: "Quiet", notify_activity: false });
    const group = await database.db
      .selectFrom("groups")
      .select("id")
      .where("storyteller_id", "=", storyteller.id)
      .executeTakeFirstOrThrow();
    await addGroupMembers(database.db, group.id, [{ userId: quiet.id }]);

    await notifyStorytellerEvent(database.db, config(), {
      type: "uploaded",
      storytellerId: storyteller.id,
      promptId: prompt.id,
    });

    const link = `http://localhost:3000/dashboard/recipient/${storyteller.id}?sent=true`;
    const [english] = await emailsTo(owner.email);
    expect(english.subject).toBe("Nani answered: “Tell me about your first home.”");
    expect(english.text_body).toContain("Hello Ravi,");
    expect(english.text_body).toContain(link);

    const [hindi] = await emailsTo(collaborator.email);
    expect(hindi.subject).toBe("Nani ने जवाब दिया: “Tell me about your first home.”");
    expect(hindi.text_body).toContain("नमस्ते Meera,");
    expect(hindi.text_body).toContain(link);

    // Activity off: the in-app row, no email. Not a member: neither.
    expect(await notesOf(quiet.id)).toHaveLength(1);
    expect(await emailsTo(quiet.email)).toEqual([]);
    expect(await emailsTo(outsider.email)).toEqual([]);
    expect(await database.db.selectFrom("outbox_messages").select("id").execute()).toHaveLength(2);
  });

  it("shortens a long prompt in the subject but keeps it whole in the body", async () => {
    const owner = await createUser(database.db);
    const text = `What do you remember about ${"the long summers ".repeat(10)}at your grandmother's house?`;
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [text] });
    await notifyStorytellerEvent(database.db, config(), {
      type: "uploaded",
      storytellerId: storyteller.id,
      promptId: storyteller.prompts[0].id,
    });
    const [email] = await emailsTo(owner.email);
    expect(email.subject!.length).toBeLessThan(100);
    expect(email.subject).toMatch(/…”$/);
    expect(email.text_body).toContain(text);
  });

  it("writes nothing when the caller's transaction rolls back", async () => {
    const { owner, collaborator, storyteller, prompt } = await family(database.db);
    await expect(
      database.db.transaction().execute(async (tx) => {
        await notifyStorytellerEvent(tx, config(), {
          type: "uploaded",
          storytellerId: storyteller.id,
          promptId: prompt.id,
        });
        expect(await tx.selectFrom("notifications").select("id").execute()).toHaveLength(2);
        throw new Error("the answer could not be stored");
      }),
    ).rejects.toThrow("the answer could not be stored");
    expect(await notesOf(owner.id)).toEqual([]);
    expect(await notesOf(collaborator.id)).toEqual([]);
    expect(await database.db.selectFrom("outbox_messages").select("id").execute()).toEqual([]);
    expect(
      (await sql`select id from graphile_worker.jobs where task_identifier = 'outbox__send'`.execute(database.db)).rows,
    ).toEqual([]);
  });

  it("does nothing for a prompt that is not the Storyteller's", async () => {
    const { owner, storyteller } = await family(database.db);
    const other = await createStoryteller(database.db, { ownerId: owner.id });
    await notifyStorytellerEvent(database.db, config(), {
      type: "listened",
      storytellerId: storyteller.id,
      promptId: other.prompts[0].id,
    });
    expect(await notesOf(owner.id)).toEqual([]);
  });
});

describe("listing, counting and marking read", () => {
  async function seed(userId: string, storytellerId: string, promptId: string, count: number) {
    const base = Date.parse("2026-05-01T10:00:00Z");
    return createNotifications(database.db, {
      userId,
      type: "uploaded",
      storytellerId,
      promptId,
      createdAt: Array.from({ length: count }, (_, i) => new Date(base + i * 60_000)),
    });
  }

  it("lists newest first with the nickname and prompt text, and counts the unread", async () => {
    const { owner, storyteller, prompt } = await family(database.db);
    const ids = await seed(owner.id, storyteller.id, prompt.id, 4);
    const list = await listNotifications(database.db, owner.id, 3);
    expect(list.map((n) => n.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(list[0]).toMatchObject({
      type: "uploaded",
      storytellerId: storyteller.id,
      promptId: prompt.id,
      nickname: "Nani",
      promptText: "Tell me about your first home.",
      isNew: true,
    });
    expect(await unreadCount(database.db, owner.id)).toBe(4);
  });

  it("marks only the user's own rows read: another user's ids are left alone", async () => {
    const { owner, collaborator, storyteller, prompt } = await family(database.db);
    const mine = await seed(owner.id, storyteller.id, prompt.id, 3);
    const theirs = await seed(collaborator.id, storyteller.id, prompt.id, 2);

    expect(await markRead(database.db, owner.id, [mine[0], theirs[0], "not-a-uuid"])).toBe(1);
    expect(await unreadCount(database.db, owner.id)).toBe(2);
    expect(await unreadCount(database.db, collaborator.id)).toBe(2);
    // Marking again changes nothing.
    expect(await markRead(database.db, owner.id, [mine[0]])).toBe(0);
    expect(await markRead(database.db, owner.id, [])).toBe(0);

    expect(await markRead(database.db, owner.id, "all")).toBe(2);
    expect(await unreadCount(database.db, owner.id)).toBe(0);
    expect(await unreadCount(database.db, collaborator.id)).toBe(2);
  });

  it("counts unread through the partial index", async () => {
    const { owner, storyteller, prompt } = await family(database.db);
    await seed(owner.id, storyteller.id, prompt.id, 2);
    const client = await database.pool.connect();
    try {
      await client.query("begin");
      await client.query("set local enable_seqscan = off");
      const query = unreadCountQuery(database.db, owner.id).compile();
      const plan = await client.query(`explain ${query.sql}`, query.parameters as unknown[]);
      await client.query("rollback");
      expect(plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n")).toContain(
        "notifications_unread_idx",
      );
    } finally {
      client.release();
    }
  });
});

describe("what the bell leaves out (decision 050)", () => {
  it("neither lists nor counts a question sent or opened; answers, skips and the rest are both", async () => {
    const { owner, storyteller, prompt } = await family(database.db);
    const at = (minute: number) => [new Date(Date.parse("2026-05-01T10:00:00Z") + minute * 60_000)];
    const note = (type: string, minute: number) =>
      createNotifications(database.db, {
        userId: owner.id,
        type,
        storytellerId: storyteller.id,
        promptId: prompt.id,
        createdAt: at(minute),
      });
    // One question's life: sent, opened, answered; another's: sent, opened, skipped; the queue ran out.
    await note("new", 0);
    await note("listened", 1);
    const [answered] = await note("uploaded", 2);
    await note("new", 3);
    await note("listened", 4);
    const [skipped] = await note("skipped", 5);
    const [empty] = await note("queue_empty", 6);

    const list = await listNotifications(database.db, owner.id, 50);
    expect(list.map((n) => [n.id, n.type])).toEqual([
      [empty, "queue_empty"],
      [skipped, "skipped"],
      [answered, "uploaded"],
    ]);
    // The badge says what the list holds.
    expect(await unreadCount(database.db, owner.id)).toBe(list.length);
    expect(
      await markRead(
        database.db,
        owner.id,
        list.map((n) => n.id),
      ),
    ).toBe(3);
    expect(await unreadCount(database.db, owner.id)).toBe(0);
  });

  it("still writes the rows, so what she opened is kept", async () => {
    const { owner, storyteller, prompt } = await family(database.db);
    await notifyStorytellerEvent(database.db, config(), {
      type: "listened",
      storytellerId: storyteller.id,
      promptId: prompt.id,
    });
    expect((await notesOf(owner.id)).map((n) => n.type)).toEqual(["listened"]);
    expect(await listNotifications(database.db, owner.id, 5)).toEqual([]);
  });
});
