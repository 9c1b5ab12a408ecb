import { describe, expect, it } from "vitest";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createUser } from "../../tests/factories";
import { queueAnnouncement } from "./announcement.server";

const database = useTestDatabase();

async function outbox(...to: string[]) {
  return database.db
    .selectFrom("outbox_messages")
    .select(["to_address", "subject", "text_body"])
    .where("to_address", "in", to)
    .orderBy("to_address")
    .execute();
}

describe("announcements", () => {
  it("reach only those whose Application notifications are on, in their language when written in it", async () => {
    const { config } = makeTestContext(database);
    await createUser(database.db, { email: "a-english@example.org", first_name: "Asha", notify_application: true });
    await createUser(database.db, {
      email: "b-hindi@example.org",
      first_name: "Bela",
      language: "hi",
      notify_application: true,
    });
    await createUser(database.db, { email: "c-off@example.org", notify_application: false });

    const count = await queueAnnouncement(database.db, config, {
      en: { subject: "Answer by phone", message: "Storytellers can now call in." },
      hi: { subject: "फ़ोन से उत्तर", message: "अब कहानीकार फ़ोन करके उत्तर दे सकते हैं।" },
    });

    expect(count).toBe(2);
    const [english, hindi, off] = await outbox("a-english@example.org", "b-hindi@example.org", "c-off@example.org");
    expect(off).toBeUndefined();
    expect(english).toMatchObject({ to_address: "a-english@example.org", subject: "Answer by phone" });
    expect(english.text_body).toContain("Hello Asha,\n\nStorytellers can now call in.");
    expect(english.text_body).toContain(`${config.APP_URL}/dashboard/user/account`);
    expect(hindi).toMatchObject({ to_address: "b-hindi@example.org", subject: "फ़ोन से उत्तर" });
    expect(hindi.text_body).toContain("नमस्ते Bela,\n\nअब कहानीकार फ़ोन करके उत्तर दे सकते हैं।");
  });

  it("go out in English to Hindi speakers when no Hindi text was written", async () => {
    const { config } = makeTestContext(database);
    await createUser(database.db, { email: "hindi@example.org", language: "hi", notify_application: true });

    await queueAnnouncement(database.db, config, { en: { subject: "News", message: "Something new." } });

    const [only] = await outbox("hindi@example.org");
    expect(only.subject).toBe("News");
    expect(only.text_body).toMatch(/^Hello .*,\n\nSomething new\./);
  });
});
