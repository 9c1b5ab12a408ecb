import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { getStorytellerView } from "~/models/prompt.server";
import { answerForListener, serveAnswerAudio } from "~/models/share.server";
import { listStorytellerCards } from "~/models/storyteller.server";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { DEMO_EMAIL, seedDemoFamily } from "./demo-family";

const database = useTestDatabase();

const DEVANAGARI = /[\u0900-\u097F]/;

describe("npm run db:seed (the demo family)", () => {
  it("gives the demo account two Storytellers with queued prompts and answered ones that play, and a second run adds nothing", async () => {
    const context = makeTestContext(database);
    const services = { db: context.db, config: context.config, storage: context.storage };
    const first = await seedDemoFamily(services);
    const second = await seedDemoFamily(services);
    expect(first.userCreated).toBe(true);
    expect(first.storytellers.map((s) => s.created)).toEqual([true, true]);
    expect(second.userCreated).toBe(false);
    expect(second.storytellers.map((s) => s.created)).toEqual([false, false]);

    const { db } = database;
    const users = await db.selectFrom("users").select("id").where("email", "=", DEMO_EMAIL).execute();
    expect(users).toHaveLength(1);
    const userId = users[0].id;

    // The overview: both Storytellers, with their answers counted once.
    const cards = await listStorytellerCards(db, userId);
    expect(cards.map((c) => [c.nickname, c.answered])).toEqual([
      ["Grandpa Joe", 2],
      ["Nani", 2],
    ]);

    const joe = (await getStorytellerView(db, userId, cards[0].id))!;
    expect(joe.storyteller.language).toBe("en");
    expect(joe.queued).toHaveLength(3);
    expect(joe.sent).toHaveLength(3);
    expect(joe.sent.filter((p) => p.answer_id)).toHaveLength(2);
    // Newest first, and the newest is still waiting for its answer.
    expect(joe.sent[0].answer_id).toBeNull();
    expect(joe.sent[0].sent_at!.getTime()).toBeLessThan(Date.now());
    expect(joe.sent.find((p) => p.answer_id)!.transcript).toMatch(/kitchen|newspapers/);

    const nani = (await getStorytellerView(db, userId, cards[1].id))!;
    expect(nani.storyteller.language).toBe("hi");
    expect(nani.storyteller.first_name).toMatch(DEVANAGARI);
    expect(nani.queued).toHaveLength(3);
    expect(nani.sent).toHaveLength(2);
    for (const prompt of [...nani.queued, ...nani.sent]) expect(prompt.text).toMatch(DEVANAGARI);
    for (const prompt of nani.sent) {
      expect(prompt.transcript_status).toBe("done");
      expect(prompt.transcript).toMatch(DEVANAGARI);
    }

    // Each sent prompt went out once, as a message in the outbox with its record link.
    const outbox = await db
      .selectFrom("outbox_messages")
      .select(["to_address", "text_body"])
      .where("to_address", "in", ["grandpa.joe@example.com", "nani@example.com"])
      .execute();
    expect(outbox).toHaveLength(5);
    for (const message of outbox) expect(message.text_body).toContain("/record/");

    // Every answer plays on the Sent tab: the family's player gets the stored WAV in full.
    const answered = [...joe.sent, ...nani.sent].filter((p) => p.answer_id);
    expect(answered).toHaveLength(4);
    for (const prompt of answered) {
      const audio = await answerForListener(db, userId, prompt.answer_id!);
      expect(audio).not.toBeNull();
      const response = await serveAnswerAudio(
        new Request("http://localhost:3000/media/answer/x"),
        context.storage,
        audio!,
        { download: false },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/^audio\/wav/);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(0, 4).toString()).toBe("RIFF");
      expect(bytes.subarray(8, 12).toString()).toBe("WAVE");
      const row = await db
        .selectFrom("answers")
        .select(["byte_size", "duration_ms"])
        .where("id", "=", prompt.answer_id!)
        .executeTakeFirstOrThrow();
      expect(bytes.length).toBe(Number(row.byte_size));
      expect(row.duration_ms).toBeGreaterThan(4000);
    }

    // Nothing is due yet: the app's scheduler does not send from the queues the moment it starts.
    const due = await db
      .selectFrom("schedules")
      .select("storyteller_id")
      .where("storyteller_id", "in", [cards[0].id, cards[1].id])
      .where((eb) => eb.or([eb("next_send_at", "is", null), eb("next_send_at", "<=", new Date())]))
      .execute();
    expect(due).toHaveLength(0);

    const totals = await db
      .selectFrom("answers")
      .select(sql<number>`count(*)::int`.as("answers"))
      .executeTakeFirstOrThrow();
    expect(totals.answers).toBe(4);
  });
});
