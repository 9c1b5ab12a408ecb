import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../tests/db";
import { makeTestContext } from "../../tests/context";
import { queueEmail } from "~/services/outbox.server";
import { loader } from "./dev.outbox";

const database = useTestDatabase();
const request = () => new Request("http://localhost:3000/dev/outbox");

const status = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 200;
  } catch (thrown) {
    return (thrown as Response).status;
  }
};

const postmark = { APP_URL: "https://h.example", POSTMARK_SERVER_TOKEN: "t", MAIL_FROM: "h@h.example", MAIL_POSTAL_ADDRESS: "1 Main St", CONTACT_EMAIL: "c@h.example" };
const twilio = { TWILIO_ACCOUNT_SID: "AC" + "0".repeat(32), TWILIO_AUTH_TOKEN: "x".repeat(20), TWILIO_FROM_NUMBER: "+15555550100" };

describe("/dev/outbox", () => {
  it("lists outbox messages, newest first, to a loopback visitor while the outbox is in use", async () => {
    await queueEmail(database.db, { to: "first@example.com", subject: "First", text: "one" });
    await queueEmail(database.db, { to: "second@example.com", subject: "Second", text: "two https://example.com/x" });
    const data = await loader({ request: request(), context: makeTestContext(database), params: {} });
    expect(data.messages.map((m) => m.to_address).slice(0, 2)).toEqual(["second@example.com", "first@example.com"]);
  });

  it("is a 404 for anyone not on this machine", async () => {
    expect(await status(loader({ request: request(), context: makeTestContext(database, {}, { fromLoopback: false }), params: {} }))).toBe(404);
  });

  it("leaves out the channel that has a real provider", async () => {
    await queueEmail(database.db, { to: "via-postmark@example.com", subject: "Real", text: "secret code" });
    const data = await loader({ request: request(), context: makeTestContext(database, postmark), params: {} });
    expect(data.messages.some((m) => m.channel === "email")).toBe(false);
  });

  it("is a 404 once real providers are configured", async () => {
    expect(await status(loader({ request: request(), context: makeTestContext(database, { ...postmark, ...twilio }), params: {} }))).toBe(404);
  });
});
