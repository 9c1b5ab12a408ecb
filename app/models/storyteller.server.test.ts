import { describe, expect, it } from "vitest";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createGroup, createPrompt, createStoryteller, createUser } from "../../tests/factories";
import { unsubscribeStoryteller } from "./capability-links.server";
import { createStorytellerFromDraft } from "./onboarding.server";
import {
  BOARD_CARDS_PER_KIND,
  checkStorytellerFields,
  deleteStoryteller,
  getBoard,
  saveStoryteller,
  setPaused,
} from "./storyteller.server";

const database = useTestDatabase();
const services = () => makeTestContext(database);

const fieldsOf = (overrides: Partial<Parameters<typeof saveStoryteller>[2]> = {}) => ({
  nickname: "Nani",
  firstName: "Kamla",
  deliveryMethod: "email" as const,
  email: "nani@example.com",
  timeZone: "America/New_York",
  language: "en" as const,
  firstPromptDate: "2026-01-01",
  frequency: "daily" as const,
  ...overrides,
});
const scheduleOf = (id: string) =>
  database.db.selectFrom("schedules").selectAll().where("storyteller_id", "=", id).executeTakeFirstOrThrow();
const storytellerOf = (id: string) =>
  database.db.selectFrom("storytellers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const textsTo = (phone: string) =>
  database.db.selectFrom("outbox_messages").select("text_body").where("to_address", "=", phone).execute();

describe("the Storyteller's fields, as every form sends them", () => {
  it("take US and Canadian numbers for texts (stored in E.164) and known time zones, and refuse the rest by field", () => {
    expect(
      checkStorytellerFields(fieldsOf({ deliveryMethod: "sms", phone: "(416) 555-0199" }), services().config),
    ).toMatchObject({
      ok: true,
      columns: { phone_e164: "+14165550199", delivery_method: "sms" },
    });
    expect(
      checkStorytellerFields(
        fieldsOf({ deliveryMethod: "sms", phone: "+44 7400 123456", timeZone: "Mars/Olympus_Mons" }),
        services().config,
      ),
    ).toEqual({
      ok: false,
      fieldErrors: {
        phone: ["storytellers:errors.smsOnlyUsCaMobile", "storytellers:errors.numberCan.whatsapp"],
        timeZone: ["storytellers:errors.timeZoneInvalid"],
      },
    });
  });

  it("write nothing when they are refused", async () => {
    const owner = await createUser(database.db);
    const result = await saveStoryteller(
      services(),
      { ownerId: owner.id },
      fieldsOf({ deliveryMethod: "sms", phone: "+44 7400 123456" }),
    );
    expect(result).toEqual({
      ok: false,
      problem: "invalid",
      fieldErrors: { phone: ["storytellers:errors.smsOnlyUsCaMobile", "storytellers:errors.numberCan.whatsapp"] },
    });
    expect(
      await database.db.selectFrom("storytellers").select("id").where("owner_id", "=", owner.id).execute(),
    ).toEqual([]);
  });

  it("make a new Storyteller with their schedule, and ask a new number for consent before any question", async () => {
    const owner = await createUser(database.db);
    const result = await saveStoryteller(
      services(),
      { ownerId: owner.id },
      fieldsOf({
        deliveryMethod: "sms",
        email: undefined,
        phone: "415 555 2671",
        frequency: "weekly",
        firstPromptDate: "2027-03-14",
      }),
    );
    if (!result.ok) throw new Error("not saved");
    expect(await storytellerOf(result.storytellerId)).toMatchObject({
      owner_id: owner.id,
      phone_e164: "+14155552671",
      sms_consent: "requested",
    });
    // 10:00 in New York on 14 March 2027, the first day of daylight saving time: 14:00 UTC.
    expect(await scheduleOf(result.storytellerId)).toMatchObject({
      frequency: "weekly",
      next_send_at: new Date("2027-03-14T14:00:00Z"),
    });
    expect(await textsTo("+14155552671")).toHaveLength(1);
  });
});

describe("editing a Storyteller's delivery", () => {
  it("recomputes the next send from now when the schedule or time zone changes, and keeps it otherwise", async () => {
    const owner = await createUser(database.db);
    const next = new Date("2026-12-01T15:00:00Z");
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      email: "nani@example.com",
      frequency: "weekly",
      firstPromptDate: "2026-11-03",
      nextSendAt: next,
    });
    const now = new Date("2026-11-21T12:00:00Z");
    const edit = { userId: owner.id, storytellerId: st.id };

    expect(
      await saveStoryteller(
        services(),
        edit,
        fieldsOf({ nickname: "Nani ji", firstPromptDate: "2026-11-03", frequency: "weekly" }),
        now,
      ),
    ).toEqual({ ok: true, storytellerId: st.id });
    expect((await scheduleOf(st.id)).next_send_at).toEqual(next);

    // Monthly on the 3rd: 3 December, 10:00 New York (EST) = 15:00 UTC.
    await saveStoryteller(services(), edit, fieldsOf({ firstPromptDate: "2026-11-03", frequency: "monthly" }), now);
    expect((await scheduleOf(st.id)).next_send_at).toEqual(new Date("2026-12-03T15:00:00Z"));

    // Same rule, now in Kolkata: 10:00 IST on 3 December = 04:30 UTC.
    await saveStoryteller(
      services(),
      edit,
      fieldsOf({ timeZone: "Asia/Kolkata", firstPromptDate: "2026-11-03", frequency: "monthly" }),
      now,
    );
    expect((await scheduleOf(st.id)).next_send_at).toEqual(new Date("2026-12-03T04:30:00Z"));
  });

  it("gives a new email address a clean slate and asks a new number for consent", async () => {
    const owner = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, email: "old@example.com" });
    await database.db
      .updateTable("storytellers")
      .set({ unsubscribed_at: new Date(), email_undeliverable_at: new Date() })
      .where("id", "=", st.id)
      .execute();
    const edit = { userId: owner.id, storytellerId: st.id };

    await saveStoryteller(services(), edit, fieldsOf({ email: "OLD@example.com" }));
    expect((await storytellerOf(st.id)).unsubscribed_at).not.toBeNull();
    await saveStoryteller(services(), edit, fieldsOf({ email: "new@example.com" }));
    expect(await storytellerOf(st.id)).toMatchObject({ unsubscribed_at: null, email_undeliverable_at: null });

    const toText = fieldsOf({ deliveryMethod: "sms", email: undefined, phone: "+1 415 555 2681" });
    await saveStoryteller(services(), edit, toText);
    expect((await storytellerOf(st.id)).sms_consent).toBe("requested");
    expect(await textsTo("+14155552681")).toHaveLength(1);
    await database.db.updateTable("storytellers").set({ sms_consent: "granted" }).where("id", "=", st.id).execute();
    await saveStoryteller(services(), edit, toText);
    expect((await storytellerOf(st.id)).sms_consent).toBe("granted");
    expect(await textsTo("+14155552681")).toHaveLength(1);
    await saveStoryteller(services(), edit, { ...toText, phone: "+1 415 555 2682" });
    expect((await storytellerOf(st.id)).sms_consent).toBe("requested");
    expect(await textsTo("+14155552682")).toHaveLength(1);
  });

  it("is for the owner only: a collaborator's or a stranger's edit finds nothing and changes nothing", async () => {
    const owner = await createUser(database.db);
    const collaborator = await createUser(database.db);
    const st = await createStoryteller(database.db, { ownerId: owner.id, email: "nani@example.com" });
    await createGroup(database.db, { ownerId: owner.id, storytellerId: st.id, collaborators: [collaborator.id] });
    const before = await storytellerOf(st.id);
    for (const user of [collaborator, await createUser(database.db)]) {
      expect(
        await saveStoryteller(services(), { userId: user.id, storytellerId: st.id }, fieldsOf({ nickname: "Taken" })),
      ).toEqual({ ok: false, problem: "not-found" });
    }
    expect(await storytellerOf(st.id)).toEqual(before);
  });

  it("pauses and resumes for the owner only; resuming picks the next date after now", async () => {
    const owner = await createUser(database.db);
    const other = await createUser(database.db);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      frequency: "daily",
      nextSendAt: new Date("2026-11-01T14:00:00Z"),
    });
    expect(await setPaused(database.db, other.id, st.id, true)).toBe(false);
    expect((await scheduleOf(st.id)).paused_at).toBeNull();
    expect(await setPaused(database.db, owner.id, st.id, true, new Date("2026-11-02T00:00:00Z"))).toBe(true);
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
    const edit = { userId: owner.id, storytellerId: st.id };

    await saveStoryteller(services(), edit, fieldsOf({ email: "someone-else@example.com" }));
    expect((await storytellerOf(st.id)).unsubscribed_at).toBeNull();
    await saveStoryteller(services(), edit, fieldsOf({ email: "dadi@example.com" }));
    expect((await storytellerOf(st.id)).unsubscribed_at).not.toBeNull();

    const other = await createUser(database.db);
    const created = await createStorytellerFromDraft(services(), other.id, {
      who: {
        nickname: "Dadi",
        firstName: "Kamla",
        deliveryMethod: "email",
        email: "DADI@example.com",
        timeZone: "Asia/Kolkata",
        language: "hi",
      },
      prompts: { libraryPromptIds: [], customPrompts: ["What games did you play?"] },
      schedule: { firstPromptDate: "2027-01-01", frequency: "weekly" },
    });
    if (!created.ok) throw new Error("not created");
    expect((await storytellerOf(created.storytellerId)).unsubscribed_at).not.toBeNull();
  });
});

describe("deleting a Storyteller", () => {
  it("removes their recordings from storage once the rows are gone, and only theirs; for the owner only", async () => {
    const { storage } = services();
    const owner = await createUser(database.db);
    const [gone, kept] = [
      await createStoryteller(database.db, { ownerId: owner.id }),
      await createStoryteller(database.db, { ownerId: owner.id }),
    ];
    const keys: string[] = [];
    for (const st of [gone, kept]) {
      const answer = await createAnswer(database.db, {
        storytellerId: st.id,
        storage,
        audio: new Uint8Array([1]),
        durationMs: 1000,
      });
      keys.push(answer.storage_key!);
    }
    const stranger = await createUser(database.db);
    expect(await deleteStoryteller({ db: database.db, storage }, stranger.id, gone.id)).toBe(false);
    expect(await storage.get(keys[0])).not.toBeNull();
    expect(await deleteStoryteller({ db: database.db, storage }, owner.id, gone.id)).toBe(true);
    expect(
      await database.db.selectFrom("storytellers").select("id").where("id", "=", gone.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await storage.get(keys[0])).toBeNull();
    expect(await storage.get(keys[1])).not.toBeNull();
  });
});

describe("the board", () => {
  it("shows the next queued and the latest sent prompts of each column, and how many more its page has", async () => {
    const owner = await createUser(database.db);
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      prompts: [
        ...Array.from({ length: 15 }, (_, i) => ({ text: `Sent question ${i + 1}`, sentAt: day(i) })),
        ...Array.from({ length: 30 }, (_, i) => `Queued question ${i + 1}`),
      ],
    });
    const short = await createStoryteller(database.db, { ownerId: owner.id, prompts: ["Only one"] });

    const board = await getBoard(database.db, owner.id);
    const column = board.columns.find((c) => c.id === storyteller.id)!;
    expect(BOARD_CARDS_PER_KIND).toBe(10);
    expect(column.cards.map((c) => c.text)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `Queued question ${i + 1}`),
      ...Array.from({ length: 10 }, (_, i) => `Sent question ${15 - i}`),
    ]);
    expect(column.more).toBe(25);
    expect(board.columns.find((c) => c.id === short.id)).toMatchObject({ more: 0, cards: [{ text: "Only one" }] });
  });

  it("says when each queued question goes out, in order, and what became of each sent one", async () => {
    const owner = await createUser(database.db);
    const next = new Date("2027-03-01T16:00:00Z"); // 10:00 in Chicago (CST)
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      timeZone: "America/Chicago",
      firstPromptDate: "2027-03-01",
      frequency: "weekly",
      nextSendAt: next,
      prompts: ["First queued one?", "Second queued one?", "Third queued one?"],
    });
    const day = (n: number) => new Date(Date.UTC(2027, 1, n));
    const answered = await createPrompt(database.db, { storytellerId: st.id, text: "Answered one?", sentAt: day(1) });
    const kept = await createPrompt(database.db, { storytellerId: st.id, text: "Private one?", sentAt: day(2) });
    await createPrompt(database.db, { storytellerId: st.id, text: "Skipped one?", sentAt: day(3), skippedAt: day(4) });
    await createPrompt(database.db, { storytellerId: st.id, text: "Waiting one?", sentAt: day(5) });
    await createAnswer(database.db, { storytellerId: st.id, promptId: answered.id });
    await createAnswer(database.db, { storytellerId: st.id, promptId: kept.id, isPrivate: true });

    const column = (await getBoard(database.db, owner.id)).columns.find((c) => c.id === st.id)!;
    expect(column.cards.map((c) => [c.text, c.state, c.at?.toISOString()])).toEqual([
      ["First queued one?", "queued", "2027-03-01T16:00:00.000Z"],
      ["Second queued one?", "queued", "2027-03-08T16:00:00.000Z"],
      // Daylight saving began on 14 March: still 10:00 in Chicago.
      ["Third queued one?", "queued", "2027-03-15T15:00:00.000Z"],
      ["Waiting one?", "not-answered", day(5).toISOString()],
      ["Skipped one?", "skipped", day(3).toISOString()],
      ["Private one?", "answered-private", day(2).toISOString()],
      ["Answered one?", "answered", day(1).toISOString()],
    ]);

    await database.db
      .updateTable("schedules")
      .set({ paused_at: new Date() })
      .where("storyteller_id", "=", st.id)
      .execute();
    const paused = (await getBoard(database.db, owner.id)).columns.find((c) => c.id === st.id)!;
    expect(paused.paused).toBe(true);
    expect(paused.cards.filter((c) => c.state === "queued").map((c) => c.at)).toEqual([null, null, null]);
  });
});
