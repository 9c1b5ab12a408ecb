import { describe, expect, it } from "vitest";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createUser } from "../../tests/factories";
import { createStorytellerFromDraft, saveDraftStep } from "./onboarding.server";
import { firstSendAt } from "./schedule";

const database = useTestDatabase();
const services = () => makeTestContext(database);

const who = {
  nickname: "Nani",
  firstName: "Kamla",
  deliveryMethod: "email" as const,
  email: "nani@example.com",
  timeZone: "America/New_York",
  language: "hi" as const,
};

describe("creating a Storyteller from the wizard", () => {
  it("creates the Storyteller, schedule and queue in order, library prompts in the Storyteller's language, and clears the draft", async () => {
    const { id: ownerId } = await createUser(database.db);
    await saveDraftStep(database.db, ownerId, "who", who);
    const library = await database.db
      .selectFrom("library_prompts")
      .select(["id", "text_hi"])
      .where("category_id", "=", "growing-up")
      .orderBy("position")
      .limit(2)
      .execute();
    const created = await createStorytellerFromDraft(services(), ownerId, {
      who,
      prompts: {
        libraryPromptIds: library.map((p) => p.id),
        customPrompts: ["What did you cook on Sundays?", "what did you cook on sundays?"],
      },
      schedule: { firstPromptDate: "2027-03-14", frequency: "weekly" },
    });
    if (!created.ok) throw new Error("not created");
    const id = created.storytellerId;
    const prompts = await database.db
      .selectFrom("prompts")
      .select(["text", "queue_position"])
      .where("storyteller_id", "=", id)
      .orderBy("queue_position")
      .execute();
    expect(prompts.map((p) => p.text)).toEqual([
      library[0].text_hi,
      library[1].text_hi,
      "What did you cook on Sundays?",
    ]);
    const schedule = await database.db
      .selectFrom("schedules")
      .selectAll()
      .where("storyteller_id", "=", id)
      .executeTakeFirstOrThrow();
    // 10:00 in New York on 14 March 2027, the first day of daylight saving time: 14:00 UTC.
    expect(schedule.next_send_at?.toISOString()).toBe("2027-03-14T14:00:00.000Z");
    expect(
      await database.db
        .selectFrom("onboarding_drafts")
        .select("user_id")
        .where("user_id", "=", ownerId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it("writes nothing when any part fails", async () => {
    const { id: ownerId } = await createUser(database.db);
    await expect(
      createStorytellerFromDraft(services(), ownerId, {
        who,
        prompts: { libraryPromptIds: [], customPrompts: ["x".repeat(301)] }, // past the database's own limit
        schedule: { firstPromptDate: "2027-01-01", frequency: "daily" },
      }),
    ).rejects.toThrow();
    expect(await database.db.selectFrom("storytellers").select("id").where("owner_id", "=", ownerId).execute()).toEqual(
      [],
    );
  });

  it("refuses a first step the server's checks turn down, and writes nothing", async () => {
    const { id: ownerId } = await createUser(database.db);
    await saveDraftStep(database.db, ownerId, "who", who);
    const result = await createStorytellerFromDraft(services(), ownerId, {
      who: { ...who, deliveryMethod: "sms", phone: "+44 7700 900123" },
      prompts: { libraryPromptIds: [], customPrompts: ["What did you cook on Sundays?"] },
      schedule: { firstPromptDate: "2027-01-01", frequency: "daily" },
    });
    expect(result).toEqual({
      ok: false,
      problem: "invalid",
      fieldErrors: { phone: ["storytellers:errors.phoneInvalid"] },
    });
    expect(await database.db.selectFrom("storytellers").select("id").where("owner_id", "=", ownerId).execute()).toEqual(
      [],
    );
    expect(
      await database.db
        .selectFrom("onboarding_drafts")
        .select("user_id")
        .where("user_id", "=", ownerId)
        .executeTakeFirst(),
    ).toBeDefined();
  });

  it("puts the first send at 10:00 local time across zones", () => {
    expect(
      firstSendAt({ firstPromptDate: "2026-12-01", frequency: "daily", timeZone: "Asia/Kolkata" }).toISOString(),
    ).toBe("2026-12-01T04:30:00.000Z");
    expect(
      firstSendAt({ firstPromptDate: "2026-07-01", frequency: "daily", timeZone: "America/Phoenix" }).toISOString(),
    ).toBe("2026-07-01T17:00:00.000Z");
  });
});
