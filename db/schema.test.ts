import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../tests/db";
import { createDelivery, createPrompt, createSession, createStoryteller, createUser } from "../tests/factories";

const database = useTestDatabase();

async function seedStoryteller() {
  const { db } = database;
  const user = await createUser(db);
  const storyteller = await createStoryteller(db, {
    ownerId: user.id,
    email: "nani@example.com",
    timeZone: "Asia/Kolkata",
    prompts: [],
  });
  return { userId: user.id, storytellerId: storyteller.id };
}

describe("schema constraints", () => {
  it("refuses a second account with the same email in any letter case", async () => {
    await createUser(database.db, { email: "Same@Example.com" });
    await expect(createUser(database.db, { email: "same@example.com" })).rejects.toThrow(/users_email_key/);
  });

  it("keeps one queued copy of a prompt text per Storyteller, and allows it again once sent", async () => {
    const { storytellerId } = await seedStoryteller();
    const insert = (text: string) => createPrompt(database.db, { storytellerId, text });
    const first = await insert("What was your first job?");
    await expect(insert("what was your FIRST job?")).rejects.toThrow(/prompts_queued_text_key/);
    await database.db.updateTable("prompts").set({ sent_at: new Date() }).where("id", "=", first.id).execute();
    await expect(insert("What was your first job?")).resolves.toBeTruthy();
  });

  it("records each (prompt, channel) send at most once", async () => {
    const { storytellerId } = await seedStoryteller();
    const prompt = await createPrompt(database.db, { storytellerId, text: "Tell me about your school." });
    await createDelivery(database.db, { promptId: prompt.id, channel: "email" });
    await expect(createDelivery(database.db, { promptId: prompt.id, channel: "email" })).rejects.toThrow(
      /deliveries_prompt_id_channel_purpose_key/,
    );
  });

  it("deleting a user removes everything they own", async () => {
    const { userId, storytellerId } = await seedStoryteller();
    await createPrompt(database.db, { storytellerId, text: "Where did you grow up?" });
    await createSession(database.db, { userId });
    await database.db.deleteFrom("users").where("id", "=", userId).execute();
    const left = await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", storytellerId)
      .execute();
    const sessions = await database.db.selectFrom("sessions").select("id_hash").where("user_id", "=", userId).execute();
    expect(left).toEqual([]);
    expect(sessions).toEqual([]);
  });

  it("refuses an email Storyteller without an email address", async () => {
    const { userId } = await seedStoryteller();
    await expect(
      createStoryteller(database.db, { ownerId: userId, deliveryMethod: "email", email: null }),
    ).rejects.toThrow(/check constraint/);
  });
});
