import { afterEach, describe, expect, it } from "vitest";
import { sendJson, startFakeApi } from "../../tests/fake-http-server";
import { createPostmarkMail } from "./mail.server";
import { createTwilioSms } from "./sms.server";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("Postmark mail", () => {
  it("sends through Postmark's /email API and returns its MessageID", async () => {
    const api = await startFakeApi((_req, res) =>
      sendJson(res, 200, { To: "ann@example.com", SubmittedAt: new Date().toISOString(), MessageID: "b7bc2f4a-e38e-4336-af7d-e6c392c2f817", ErrorCode: 0, Message: "OK" }),
    );
    close = api.close;
    const mail = createPostmarkMail({ POSTMARK_SERVER_TOKEN: "server-token", POSTMARK_API_URL: api.url, MAIL_FROM: "Heirloom <hello@heirloom.example>" });
    const id = await mail.send({ id: "m1", to: "ann@example.com", subject: "Hello", text: "Plain", html: "<p>Rich</p>", headers: { "List-Unsubscribe": "<https://x/u>" } });

    expect(id).toBe("b7bc2f4a-e38e-4336-af7d-e6c392c2f817");
    const [request] = api.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/email");
    expect(request.headers["x-postmark-server-token"]).toBe("server-token");
    expect(JSON.parse(request.body)).toMatchObject({
      From: "Heirloom <hello@heirloom.example>",
      To: "ann@example.com",
      Subject: "Hello",
      TextBody: "Plain",
      HtmlBody: "<p>Rich</p>",
      Headers: [{ Name: "List-Unsubscribe", Value: "<https://x/u>" }],
      MessageStream: "outbound",
    });
  });

  it("rejects when Postmark refuses the message, so the job retries", async () => {
    const api = await startFakeApi((_req, res) => sendJson(res, 422, { ErrorCode: 300, Message: "Invalid 'To' address: 'nope'." }));
    close = api.close;
    const mail = createPostmarkMail({ POSTMARK_SERVER_TOKEN: "server-token", POSTMARK_API_URL: api.url, MAIL_FROM: "hello@heirloom.example" });
    await expect(mail.send({ id: "m2", to: "nope", subject: "x", text: "x" })).rejects.toThrow(/Invalid 'To' address/);
  });
});

describe("Twilio SMS", () => {
  const sid = "AC" + "1".repeat(32);

  it("creates a Message through Twilio's REST API", async () => {
    const api = await startFakeApi((_req, res) => sendJson(res, 201, { sid: "SM" + "a".repeat(32), status: "queued", to: "+15555550123" }));
    close = api.close;
    const sms = createTwilioSms({ TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: "auth-token-1234567890", TWILIO_FROM_NUMBER: "+15555550100", TWILIO_API_URL: api.url, APP_URL: "https://heirloom.example" });
    const id = await sms.send({ id: "s1", to: "+15555550123", text: "Reply YES to get story questions." });

    expect(id).toBe("SM" + "a".repeat(32));
    const [request] = api.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe(`/2010-04-01/Accounts/${sid}/Messages.json`);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${sid}:auth-token-1234567890`).toString("base64")}`);
    const form = new URLSearchParams(request.body);
    expect(Object.fromEntries(form)).toMatchObject({
      To: "+15555550123",
      From: "+15555550100",
      Body: "Reply YES to get story questions.",
    });
  });
});
