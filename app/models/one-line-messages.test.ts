import { describe, expect, it } from "vitest";
import { queueMessagesWithoutJobs } from "~/services/outbox.server";
import { composePromptSms, composePromptWhatsApp } from "~/services/prompt-messages.server";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createDelivery, createStoryteller, createUser } from "../../tests/factories";
import { sendDelivery } from "./delivery.server";

// The message builders' own guard, behind the forms' single-line fields: a name stored with a line
// break before the forms refused one (or from Google) never breaks a subject, a header or a text.

const database = useTestDatabase();
const context = () => makeTestContext(database, { MAIL_POSTAL_ADDRESS: "12 Banyan Road, Pune 411001" });
const HEADER_BREAK = "Al\r\nBcc: victim@example.com";
const LINE_BREAK = /[\r\n\u2028\u2029]/;

describe("a name with a line break, already stored", () => {
  it("cannot break the next question email's subject or headers", async () => {
    const owner = await createUser(database.db, { first_name: HEADER_BREAK });
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      firstName: "Nani\r\nX-Injected: 1",
      prompts: ["What was your first job like?"],
    });
    const { id } = await createDelivery(database.db, {
      promptId: storyteller.prompts[0].id,
      channel: "email",
      scheduledFor: new Date("2026-04-01T14:00:00Z"),
    });
    expect(await sendDelivery(context(), id, { now: new Date("2026-04-01T14:00:40Z") })).toBe("sent");

    const email = await database.db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("to_address", "=", storyteller.email!)
      .executeTakeFirstOrThrow();
    expect(email.subject).toBe("Al Bcc: victim@example.com has a question for you");
    for (const value of Object.values(email.headers as Record<string, string>)) expect(value).not.toMatch(LINE_BREAK);
  });

  it("is folded in a batch's emails, and in texts and WhatsApp variables", async () => {
    const [row] = await queueMessagesWithoutJobs(database.db, [
      {
        channel: "email",
        email: {
          to: "nani@example.com",
          subject: `${HEADER_BREAK} has a question for you`,
          text: "Line one\nline two",
          headers: { "Reply-To": "a@example.com\r\nBcc: victim@example.com" },
        },
      },
    ]);
    expect(row.subject).toBe("Al Bcc: victim@example.com has a question for you");
    expect(row.headers).toEqual({ "Reply-To": "a@example.com Bcc: victim@example.com" });
    // The body keeps its own lines.
    expect(row.text_body).toBe("Line one\nline two");

    const input = {
      language: "en" as const,
      storytellerName: "Nani\r\nDevi",
      askerName: HEADER_BREAK,
      promptText: "What was your first job like?",
      recordUrl: "http://localhost:3000/record/t",
      photoUrl: null,
      to: "+15555550123",
    };
    const sms = await composePromptSms(context().config, input);
    expect(sms.text).toContain("Al Bcc: victim@example.com");
    expect(sms.text).not.toContain("\r");
    const whatsapp = await composePromptWhatsApp(context().config, input);
    const variables = JSON.parse(whatsapp.template!.variables) as Record<string, string>;
    expect(variables["1"]).toBe("Nani Devi");
    expect(variables["2"]).toBe("Al Bcc: victim@example.com");
  });
});
