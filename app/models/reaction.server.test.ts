import { describe, expect, it } from "vitest";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createGroup, createPrompt, createStoryteller, createUser } from "../../tests/factories";
import { nextDigestAt, react, reactionsOn, sendReactionDigest, setReactionDigest } from "./reaction.server";

const database = useTestDatabase();

// 19:30 in Delhi, 26 November 2026.
const EVENING = new Date("2026-11-26T14:00:00Z");

async function family(language: "en" | "hi" = "en") {
  const owner = await createUser(database.db, { first_name: "Priya" });
  const aman = await createUser(database.db, { first_name: "Aman" });
  const ravi = await createUser(database.db, { first_name: "Ravi" });
  const stranger = await createUser(database.db, { first_name: "Stranger" });
  const st = await createStoryteller(database.db, {
    ownerId: owner.id,
    language,
    timeZone: "Asia/Kolkata",
    prompts: [],
  });
  await createGroup(database.db, { ownerId: owner.id, storytellerId: st.id, collaborators: [aman.id, ravi.id] });
  const answerTo = async (text: string, isPrivate = false) => {
    const prompt = await createPrompt(database.db, {
      storytellerId: st.id,
      text,
      sentAt: new Date(),
      createdBy: owner.id,
    });
    return createAnswer(database.db, { storytellerId: st.id, promptId: prompt.id, isPrivate });
  };
  const farm = await answerTo("Tell me about the farm");
  const secret = await answerTo("A secret recipe", true);
  return { owner, aman, ravi, stranger, st, farm, secret };
}

const messagesTo = (address: string) =>
  database.db.selectFrom("outbox_messages").selectAll().where("to_address", "=", address).execute();

const config = makeTestContext(database).config;

describe("families answering back", () => {
  it("sends one gentle email for three hearts and a note, naming only who and which story", async () => {
    const { owner, aman, ravi, st, farm } = await family();
    for (const user of [owner, aman, ravi])
      expect(await react(database.db, user.id, farm.id, { kind: "heart" }, EVENING)).toEqual({ kind: "saved" });
    // A second heart from the same person is still one heart.
    await react(database.db, aman.id, farm.id, { kind: "heart" }, EVENING);
    await react(database.db, aman.id, farm.id, { kind: "note", note: "I never knew about the well!" }, EVENING);

    const shown = (await reactionsOn(database.db, aman.id, [farm.id])).get(farm.id)!;
    expect(shown).toMatchObject({ hearts: 3, heartedByMe: true, notes: [{ author: "Aman", mine: true }] });

    // One job for the Storyteller, at 18:00 tomorrow her time (it is 19:30 there).
    const jobs = await database.db
      .selectFrom("graphile_worker.jobs" as never)
      .select(["task_identifier", "run_at"] as never[])
      .execute();
    expect(jobs).toEqual([{ task_identifier: "reactions__digest", run_at: new Date("2026-11-27T12:30:00Z") }]);

    expect(await sendReactionDigest(database.db, config, st.id, EVENING)).toBe("sent");
    const sent = await messagesTo(st.email!);
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe("Priya, Aman and Ravi loved hearing you");
    expect(sent[0].text_body).toContain("Priya, Aman and Ravi loved your story about “Tell me about the farm”.");
    expect(sent[0].text_body).toContain("Aman wrote: “I never knew about the well!”");

    // More later the same day waits for tomorrow: never a second message today.
    await react(database.db, ravi.id, farm.id, { kind: "note", note: "Again please" }, EVENING);
    expect(await sendReactionDigest(database.db, config, st.id, new Date("2026-11-26T16:00:00Z"))).toBe(
      "already-today",
    );
    expect(await messagesTo(st.email!)).toHaveLength(1);
    expect(await sendReactionDigest(database.db, config, st.id, new Date("2026-11-27T12:30:00Z"))).toBe("sent");
    const [, second] = await messagesTo(st.email!);
    expect(second.text_body).toContain("Ravi wrote: “Again please”");
    expect(second.text_body).not.toContain("well");
  });

  it("writes in her language", async () => {
    const { aman, st, farm } = await family("hi");
    await react(database.db, aman.id, farm.id, { kind: "heart" }, EVENING);
    expect(await sendReactionDigest(database.db, config, st.id, EVENING)).toBe("sent");
    const [message] = await messagesTo(st.email!);
    expect(message.text_body).toContain("Aman को “Tell me about the farm” वाली आपकी कहानी बहुत अच्छी लगी।");
  });

  it("sends nothing once the owner turns it off, and only the owner may", async () => {
    const { owner, aman, st, farm } = await family();
    expect(await setReactionDigest(database.db, aman.id, st.id, false)).toBeNull();
    expect(await setReactionDigest(database.db, owner.id, st.id, false)).toEqual({ on: false });
    for (const user of [owner, aman]) await react(database.db, user.id, farm.id, { kind: "heart" }, EVENING);
    expect(await sendReactionDigest(database.db, config, st.id, EVENING)).toBe("off");
    expect(await messagesTo(st.email!)).toEqual([]);
    // Turned on again: what came while it was off is not sent late.
    await setReactionDigest(database.db, owner.id, st.id, true);
    expect(await sendReactionDigest(database.db, config, st.id, EVENING)).toBe("nothing-to-do");
  });

  it("never sends, once turned on again, what came while it was off (no run in between)", async () => {
    const { owner, aman, st, farm } = await family();
    await setReactionDigest(database.db, owner.id, st.id, false);
    await react(database.db, owner.id, farm.id, { kind: "heart" }, EVENING);
    await setReactionDigest(database.db, owner.id, st.id, true);
    await react(database.db, aman.id, farm.id, { kind: "heart" }, EVENING);
    expect(await sendReactionDigest(database.db, config, st.id, EVENING)).toBe("sent");
    const [message] = await messagesTo(st.email!);
    expect(message.text_body).toContain("Aman loved your story");
    expect(message.text_body).not.toContain(owner.first_name);
  });

  it("lets only those who may hear an answer react to it, and never to a private one", async () => {
    const { owner, stranger, farm, secret } = await family();
    expect(await react(database.db, stranger.id, farm.id, { kind: "heart" })).toEqual({ kind: "not-found" });
    expect(await react(database.db, owner.id, secret.id, { kind: "note", note: "hi" })).toEqual({ kind: "not-found" });
    expect(await react(database.db, owner.id, "not-a-uuid", { kind: "heart" })).toEqual({ kind: "not-found" });
    expect((await reactionsOn(database.db, stranger.id, [farm.id])).get(farm.id)).toMatchObject({ hearts: 0 });
    const rows = await database.db
      .selectFrom("answer_reactions")
      .selectAll()
      .where("answer_id", "in", [farm.id, secret.id])
      .execute();
    expect(rows).toEqual([]);
  });

  it("texts a Storyteller reached by text, never at night", async () => {
    const owner = await createUser(database.db, { first_name: "Priya" });
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      phone: "+15555550177",
      timeZone: "America/New_York",
      prompts: [],
    });
    const prompt = await createPrompt(database.db, {
      storytellerId: st.id,
      text: "The farm",
      sentAt: new Date(),
      createdBy: owner.id,
    });
    const answer = await createAnswer(database.db, { storytellerId: st.id, promptId: prompt.id });
    await react(database.db, owner.id, answer.id, { kind: "heart" }, EVENING);
    // 23:00 in New York: held for the morning.
    expect(await sendReactionDigest(database.db, config, st.id, new Date("2026-11-27T04:00:00Z"))).toBe("later");
    expect(await messagesTo("+15555550177")).toEqual([]);
    expect(await sendReactionDigest(database.db, config, st.id, new Date("2026-11-27T13:00:00Z"))).toBe("sent");
    const [text] = await messagesTo("+15555550177");
    expect(text).toMatchObject({ channel: "sms", text_body: "Priya loved your story about “The farm”." });
  });

  it("plans the message for 18:00 where she lives", () => {
    expect(nextDigestAt(new Date("2026-11-26T05:00:00Z"), "Asia/Kolkata")).toEqual(new Date("2026-11-26T12:30:00Z"));
    expect(nextDigestAt(EVENING, "Asia/Kolkata")).toEqual(new Date("2026-11-27T12:30:00Z"));
  });
});
