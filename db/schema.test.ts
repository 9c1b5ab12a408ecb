import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../tests/db";

const database = useTestDatabase();

async function seedStoryteller() {
  const { db } = database;
  const user = await db
    .insertInto("users")
    .values({ email: `u${Math.random()}@example.com`, first_name: "Asha", nickname: "asha" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const storyteller = await db
    .insertInto("storytellers")
    .values({ owner_id: user.id, nickname: "Nani", first_name: "Kamla", delivery_method: "email", email: "nani@example.com", time_zone: "Asia/Kolkata" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { userId: user.id, storytellerId: storyteller.id };
}

describe("schema constraints", () => {
  it("refuses a second account with the same email in any letter case", async () => {
    await database.db.insertInto("users").values({ email: "Same@Example.com", first_name: "A", nickname: "aa" }).execute();
    await expect(database.db.insertInto("users").values({ email: "same@example.com", first_name: "B", nickname: "bb" }).execute()).rejects.toThrow(/users_email_key/);
  });

  it("keeps one queued copy of a prompt text per Storyteller, and allows it again once sent", async () => {
    const { storytellerId } = await seedStoryteller();
    const insert = (text: string) => database.db.insertInto("prompts").values({ storyteller_id: storytellerId, text, queue_position: Math.random() }).returning("id").executeTakeFirstOrThrow();
    const first = await insert("What was your first job?");
    await expect(insert("what was your FIRST job?")).rejects.toThrow(/prompts_queued_text_key/);
    await database.db.updateTable("prompts").set({ sent_at: new Date() }).where("id", "=", first.id).execute();
    await expect(insert("What was your first job?")).resolves.toBeTruthy();
  });

  it("records each (prompt, channel) send at most once", async () => {
    const { storytellerId } = await seedStoryteller();
    const prompt = await database.db.insertInto("prompts").values({ storyteller_id: storytellerId, text: "Tell me about your school.", queue_position: 1 }).returning("id").executeTakeFirstOrThrow();
    await database.db.insertInto("deliveries").values({ prompt_id: prompt.id, channel: "email" }).execute();
    await expect(database.db.insertInto("deliveries").values({ prompt_id: prompt.id, channel: "email" }).execute()).rejects.toThrow(/deliveries_prompt_id_channel_purpose_key/);
  });

  it("deleting a user removes everything they own", async () => {
    const { userId, storytellerId } = await seedStoryteller();
    await database.db.insertInto("prompts").values({ storyteller_id: storytellerId, text: "Where did you grow up?", queue_position: 1 }).execute();
    await database.db.insertInto("sessions").values({ id_hash: `h${Math.random()}`, user_id: userId, expires_at: new Date(Date.now() + 60_000) }).execute();
    await database.db.deleteFrom("users").where("id", "=", userId).execute();
    const left = await database.db.selectFrom("prompts").select("id").where("storyteller_id", "=", storytellerId).execute();
    const sessions = await database.db.selectFrom("sessions").select("id_hash").where("user_id", "=", userId).execute();
    expect(left).toEqual([]);
    expect(sessions).toEqual([]);
  });

  it("refuses an email Storyteller without an email address", async () => {
    const { userId } = await seedStoryteller();
    await expect(
      database.db.insertInto("storytellers").values({ owner_id: userId, nickname: "Dada", first_name: "Ram", delivery_method: "email", email: null, time_zone: "Asia/Kolkata" }).execute(),
    ).rejects.toThrow(/check constraint/);
  });
});
