import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import { createStoryteller, createUser } from "../../tests/factories";
import { makeTestContext } from "../../tests/context";
import { deleteWithAnswerFiles } from "./answer.server";
import { unsubscribeStoryteller } from "./capability-links.server";
import { createStorytellerFromDraft } from "./onboarding.server";
import { setPaused, updateStoryteller } from "./storyteller.server";

const database = useTestDatabase();

const fieldsOf = (overrides: Partial<Parameters<typeof updateStoryteller>[2]> = {}) => ({
  nickname: "Nani",
  firstName: "Kamla",
  deliveryMethod: "email" as const,
  email: "nani@example.com",
  phoneE164: null,
  timeZone: "America/New_York",
  language: "en" as const,
  ...overrides,
});
const scheduleOf = (id: string) => database.db.selectFrom("schedules").selectAll().where("storyteller_id", "=", id).executeTakeFirstOrThrow();
const storytellerOf = (id: string) => database.db.selectFrom("storytellers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("editing a Storyteller's delivery", () => {
  it("recomputes the next send from now when the schedule or time zone changes, and keeps it otherwise", async () => {
    const owner = await createUser(database.db);
    const next = new Date("2026-12-01T15:00:00Z");
    const st = await createStoryteller(database.db, { ownerId: owner.id, email: "nani@example.com", frequency: "weekly", firstPromptDate: "2026-11-03", nextSendAt: next });
    const now = new Date("2026-11-21T12:00:00Z");

    await updateStoryteller(database.db, st.id, fieldsOf({ nickname: "Nani ji" }), { firstPromptDate: "2026-11-03", frequency: "weekly" }, now);
    expect((await scheduleOf(st.id)).next_send_at).toEqual(next);

    // Monthly on the 3rd: 3 December, 10:00 New York (EST) = 15:00 UTC.
    await updateStoryteller(database.db, st.id, fieldsOf(), { firstPromptDate: "2026-11-03", frequency: "monthly" }, now);
    expect((await scheduleOf(st.id)).next_send_at).toEqual(new Date("2026-12-03T15:00:00Z"));

    // Same rule, now in Kolkata: 10:00 IST on 3 December = 04:30 UTC.
    await updateStoryteller(database.db, st.id, fieldsOf({ timeZone: "Asia/Kolkata" }), { firstPromptDate: "2026-11-03", frequency: "monthly" }, now);
    expect((await scheduleOf(st.id)).next_send_at).toEqual(new Date("2026-12-03T04:30:00Z"));
  });

  it("gives a new email address a clean slate and asks a new number for consent", async () => {
    const owner = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, email: "old@example.com" });
    await database.db.updateTable("storytellers").set({ unsubscribed_at: new Date(), email_undeliverable_at: new Date() }).where("id", "=", st.id).execute();
    const rule = { firstPromptDate: "2026-01-01", frequency: "daily" as const };

    expect(await updateStoryteller(database.db, st.id, fieldsOf({ email: "OLD@example.com" }), rule)).toEqual({ needsSmsConsent: false });
    expect((await storytellerOf(st.id)).unsubscribed_at).not.toBeNull();
    await updateStoryteller(database.db, st.id, fieldsOf({ email: "new@example.com" }), rule);
    expect(await storytellerOf(st.id)).toMatchObject({ unsubscribed_at: null, email_undeliverable_at: null });

    const toText = fieldsOf({ deliveryMethod: "sms", email: undefined, phoneE164: "+14155552671" });
    expect(await updateStoryteller(database.db, st.id, toText, rule)).toEqual({ needsSmsConsent: true });
    expect((await storytellerOf(st.id)).sms_consent).toBe("none");
    await database.db.updateTable("storytellers").set({ sms_consent: "granted" }).where("id", "=", st.id).execute();
    expect(await updateStoryteller(database.db, st.id, toText, rule)).toEqual({ needsSmsConsent: false });
    expect((await storytellerOf(st.id)).sms_consent).toBe("granted");
    expect(await updateStoryteller(database.db, st.id, { ...toText, phoneE164: "+14155552672" }, rule)).toEqual({ needsSmsConsent: true });
  });

  it("pauses and resumes for the owner only; resuming picks the next date after now", async () => {
    const owner = await createUser(database.db);
    const other = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, frequency: "daily", nextSendAt: new Date("2026-11-01T14:00:00Z") });
    await expect(setPaused(database.db, other.id, st.id, true)).rejects.toMatchObject({ status: 404 });
    await setPaused(database.db, owner.id, st.id, true, new Date("2026-11-02T00:00:00Z"));
    expect((await scheduleOf(st.id)).paused_at).toEqual(new Date("2026-11-02T00:00:00Z"));
    await setPaused(database.db, owner.id, st.id, false, new Date("2026-11-20T16:00:00Z"));
    expect(await scheduleOf(st.id)).toMatchObject({ paused_at: null, next_send_at: new Date("2026-11-21T15:00:00Z") });
  });
});

describe("an unsubscribe belongs to the address", () => {
  it("survives editing the email away and back, and a new Storyteller with that address", async () => {
    const owner = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, email: "Dadi@Example.com" });
    await unsubscribeStoryteller({ db: database.db }, st.id);
    const rule = { firstPromptDate: "2026-01-01", frequency: "daily" as const };

    await updateStoryteller(database.db, st.id, fieldsOf({ email: "someone-else@example.com" }), rule);
    expect((await storytellerOf(st.id)).unsubscribed_at).toBeNull();
    await updateStoryteller(database.db, st.id, fieldsOf({ email: "dadi@example.com" }), rule);
    expect((await storytellerOf(st.id)).unsubscribed_at).not.toBeNull();

    const other = await createUser(database.db);
    const id = await createStorytellerFromDraft(database.db, other.id, {
      who: { nickname: "Dadi", firstName: "Kamla", deliveryMethod: "email", email: "DADI@example.com", timeZone: "Asia/Kolkata", language: "hi", phoneE164: null },
      prompts: { libraryPromptIds: [], customPrompts: ["What games did you play?"] },
      schedule: { firstPromptDate: "2027-01-01", frequency: "weekly" },
    });
    expect((await storytellerOf(id)).unsubscribed_at).not.toBeNull();
  });
});

describe("deleting a Storyteller", () => {
  it("removes their recordings from storage once the rows are gone, and only theirs", async () => {
    const { storage } = makeTestContext(database);
    const owner = await createUser(database.db);
    const [gone, kept] = [await createStoryteller(database.db, { ownerId: owner.id }), await createStoryteller(database.db, { ownerId: owner.id })];
    const keys: string[] = [];
    for (const st of [gone, kept]) {
      const key = `answers/${st.prompts[0].id}/a.webm`;
      keys.push(key);
      await storage.put(key, new Uint8Array([1]), "audio/webm");
      await database.db.updateTable("prompts").set({ sent_at: new Date() }).where("id", "=", st.prompts[0].id).execute();
      await database.db.insertInto("answers").values({ prompt_id: st.prompts[0].id, storyteller_id: st.id, storage_key: key, content_type: "audio/webm", byte_size: 1, duration_ms: 1000 }).execute();
    }
    await deleteWithAnswerFiles({ db: database.db, storage }, { storytellerId: gone.id }, (tx) => tx.deleteFrom("storytellers").where("id", "=", gone.id).execute());
    expect(await storage.get(keys[0])).toBeNull();
    expect(await storage.get(keys[1])).not.toBeNull();
  });
});
