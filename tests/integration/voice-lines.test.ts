import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { sendDelivery } from "~/models/delivery.server";
import { recordPageState } from "~/models/record-page.server";
import { storytellerPage } from "~/routes/dashboard.recipient.$id/server";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createDelivery, createStoryteller, createUser } from "../factories";

// Answering by phone is a call to her own country's line (TWILIO_VOICE_NUMBERS), or no line at all:
// the emails, texts, record page and the family's Sent tab all say the same.

const database = useTestDatabase();
const INDIA_LINE = "+911123456789";
const context = () => makeTestContext(database, { TWILIO_VOICE_NUMBERS: `IN=${INDIA_LINE},US=+12025550143` });

beforeEach(async () => {
  await sql`truncate users, outbox_messages cascade`.execute(database.db);
});

/** Sends her first question by her method; gives what she got and the record page's call-in line. */
async function sendTo(options: {
  timeZone: string;
  phone?: string | null;
  method?: "email" | "sms";
  language?: "en" | "hi";
}) {
  const owner = await createUser(database.db, { first_name: "Ravi" });
  const storyteller = await createStoryteller(database.db, {
    ownerId: owner.id,
    deliveryMethod: options.method ?? "email",
    smsConsent: options.method === "sms" ? "granted" : undefined,
    timeZone: options.timeZone,
    phone: options.phone,
    language: options.language,
  });
  const prompt = storyteller.prompts[0];
  const { id } = await createDelivery(database.db, {
    promptId: prompt.id,
    channel: options.method ?? "email",
    scheduledFor: new Date(),
  });
  expect(await sendDelivery(context(), id, { sendNow: true, now: new Date("2026-04-01T16:00:00Z") })).toBe("sent");
  const [message] = await database.db
    .selectFrom("outbox_messages")
    .selectAll()
    .where("to_address", "=", (options.method === "sms" ? storyteller.phone_e164 : storyteller.email)!)
    .execute();
  const token = /\/record\/([\w.-]+)/.exec(message.text_body)![1];
  const page = await recordPageState(context(), token);
  const sent = await storytellerPage(context(), owner.id, storyteller.id, "sent");
  return { text: message.text_body, html: message.html_body, page: page!.callInText, sentTab: sent!.sent[0].call_in };
}

describe("the answer-by-phone line a Storyteller is given", () => {
  it("is India's for a Storyteller in India, by her time zone (email) or her number, in Hindi too", async () => {
    const byZone = await sendTo({ timeZone: "Asia/Kolkata" });
    expect(byZone.text).toMatch(/Call 011 2345 6789 and enter \d{3}/);
    expect(byZone.html).toContain("Call 011 2345 6789");
    expect(byZone.page).toMatch(/011 2345 6789/);
    expect(byZone.sentTab).toMatchObject({ number: "011 2345 6789" });
    const byNumber = await sendTo({ timeZone: "America/New_York", phone: "+919876543210", language: "hi" });
    expect(byNumber.text).toMatch(/011 2345 6789/);
    expect(byNumber.text).not.toContain("+1 202");
    expect(byNumber.page).toMatch(/011 2345 6789/);
  });

  it("is the US one for the US and Canada, in emails and texts", async () => {
    expect((await sendTo({ timeZone: "America/Toronto" })).text).toContain("Call +1 202 555 0143");
    const text = await sendTo({ timeZone: "America/Chicago", method: "sms", phone: "+12025550123" });
    expect(text.text).toMatch(/Or call \+1 202 555 0143 and enter/);
    expect(text.page).toContain("+1 202 555 0143");
  });

  it("is none where her country has no line: no number at all, never an international call", async () => {
    for (const options of [{ timeZone: "Europe/London" }, { timeZone: "Asia/Kolkata", phone: "+447400123456" }]) {
      const got = await sendTo(options);
      expect(got.text).not.toMatch(/[Cc]all \+?\d/);
      expect(got.html).not.toContain("011 2345");
      expect(got.page).toBeNull();
      expect(got.sentTab).toBeNull();
    }
  });
});
