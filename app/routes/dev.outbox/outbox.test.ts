import { describe, expect, it } from "vitest";
import { queueEmail } from "~/services/outbox.server";
import { formRequest, makeTestContext, routeArgs } from "../../../tests/context";
import { useTestDatabase } from "../../../tests/db";
import { action, loader } from "./route";

const database = useTestDatabase();
const request = () => new Request("http://localhost:3000/dev/outbox");

// A refusal is conform's reply with 400 (data()), a missing page a thrown 404.
const status = async (promise: Promise<unknown>) => {
  try {
    const answered = await promise;
    return (answered as { init?: { status?: number } } | undefined)?.init?.status ?? 200;
  } catch (thrown) {
    return (thrown as Response).status;
  }
};

const postmark = {
  APP_URL: "https://h.example",
  POSTMARK_SERVER_TOKEN: "t",
  MAIL_FROM: "h@h.example",
  MAIL_POSTAL_ADDRESS: "1 Main St",
  CONTACT_EMAIL: "c@h.example",
};
const twilio = {
  TWILIO_ACCOUNT_SID: "AC" + "0".repeat(32),
  TWILIO_AUTH_TOKEN: "x".repeat(20),
  TWILIO_FROM_NUMBER: "+15555550100",
};

describe("/dev/outbox", () => {
  it("lists outbox messages, newest first, to a loopback visitor while the outbox is in use", async () => {
    await queueEmail(database.db, { to: "first@example.com", subject: "First", text: "one" });
    await queueEmail(database.db, { to: "second@example.com", subject: "Second", text: "two https://example.com/x" });
    const data = await loader({ request: request(), context: makeTestContext(database), params: {}, ...routeArgs });
    expect(data.messages.map((m) => m.to_address).slice(0, 2)).toEqual(["second@example.com", "first@example.com"]);
  });

  it("is a 404 for anyone not on this machine", async () => {
    expect(
      await status(
        loader({
          request: request(),
          context: makeTestContext(database, {}, { fromLoopback: false }),
          params: {},
          ...routeArgs,
        }),
      ),
    ).toBe(404);
  });

  it("leaves out the channel that has a real provider", async () => {
    await queueEmail(database.db, { to: "via-postmark@example.com", subject: "Real", text: "secret code" });
    const data = await loader({
      request: request(),
      context: makeTestContext(database, postmark),
      params: {},
      ...routeArgs,
    });
    expect(data.messages.some((m) => m.channel === "email")).toBe(false);
  });

  it("is a 404 once real providers are configured", async () => {
    expect(
      await status(
        loader({
          request: request(),
          context: makeTestContext(database, { ...postmark, ...twilio }),
          params: {},
          ...routeArgs,
        }),
      ),
    ).toBe(404);
  });

  it("answers a reply typed under a text as the Storyteller's phone would, and refuses a malformed one", async () => {
    const reply = (fields: Record<string, string>) =>
      action({
        request: formRequest("/dev/outbox", fields),
        context: makeTestContext(database),
        params: {},
        ...routeArgs,
      });
    const textsTo = (to: string) =>
      database.db
        .selectFrom("outbox_messages")
        .select("text_body")
        .where("to_address", "=", to)
        .where("channel", "=", "sms")
        .execute();

    expect(await status(reply({ from: "555-0100", body: "HELP" }))).toBe(400);
    expect(await status(reply({ from: "+15555550123", body: "   " }))).toBe(400);
    // What the page then shows, as translation keys of common (rendered by FieldErrors).
    const refused = (await reply({ from: "555-0100", body: "   " })) as { data: { result: { error: object } } };
    expect(Object.values(refused.data.result.error).flat().sort()).toEqual([
      "validation.phoneInternational",
      "validation.required",
    ]);
    expect(await textsTo("+15555550123")).toEqual([]);

    const response = (await reply({ from: "+15555550123", body: "HELP" })) as Response;
    expect(response.headers.get("Location")).toBe("/dev/outbox");
    expect((await textsTo("+15555550123")).map((m) => m.text_body)).toEqual([expect.stringContaining("/contact-us")]);
  });
});
