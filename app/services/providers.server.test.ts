import { afterEach, describe, expect, it } from "vitest";
import { sendJson, startFakeApi } from "../../tests/fake-http-server";
import { createPostmarkMail } from "./mail.server";
import { PermanentSendError } from "./send-errors.server";
import { createTwilioSms } from "./sms.server";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("Postmark mail", () => {
  it("sends through Postmark's /email API and returns its MessageID", async () => {
    const api = await startFakeApi((_req, res) =>
      sendJson(res, 200, {
        To: "ann@example.com",
        SubmittedAt: new Date().toISOString(),
        MessageID: "b7bc2f4a-e38e-4336-af7d-e6c392c2f817",
        ErrorCode: 0,
        Message: "OK",
      }),
    );
    close = api.close;
    const mail = createPostmarkMail({
      POSTMARK_SERVER_TOKEN: "server-token",
      POSTMARK_API_URL: api.url,
      MAIL_FROM: "Heirloom <hello@heirloom.example>",
    });
    const id = await mail.send({
      id: "m1",
      to: "ann@example.com",
      subject: "Hello",
      text: "Plain",
      html: "<p>Rich</p>",
      headers: { "List-Unsubscribe": "<https://x/u>" },
    });

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

  it("rejects, permanently, when Postmark refuses the message", async () => {
    const api = await startFakeApi((_req, res) =>
      sendJson(res, 422, { ErrorCode: 300, Message: "Invalid 'To' address: 'nope'." }),
    );
    close = api.close;
    const mail = createPostmarkMail({
      POSTMARK_SERVER_TOKEN: "server-token",
      POSTMARK_API_URL: api.url,
      MAIL_FROM: "hello@heirloom.example",
    });
    await expect(mail.send({ id: "m2", to: "nope", subject: "x", text: "x" })).rejects.toThrow(/Invalid 'To' address/);
  });

  const postmarkWith = async (respond: Parameters<typeof startFakeApi>[0]) => {
    const api = await startFakeApi(respond);
    close = api.close;
    return {
      api,
      mail: createPostmarkMail({
        POSTMARK_SERVER_TOKEN: "server-token",
        POSTMARK_API_URL: api.url,
        MAIL_FROM: "hello@heirloom.example",
      }),
    };
  };
  const outboxId = "0b6f7d1e-2c4a-4f3b-9a8e-5d6c7b8a9f01";

  it("sends a batch through Postmark's /email/batch API: one answer per message, in order", async () => {
    const { api, mail } = await postmarkWith((request, res) => {
      const messages = JSON.parse(request.body) as { To: string }[];
      sendJson(
        res,
        200,
        messages.map((m, i) =>
          m.To === "inactive@example.com"
            ? { ErrorCode: 406, Message: "You tried to send to a recipient that has been marked as inactive." }
            : m.To === "later@example.com"
              ? { ErrorCode: 100, Message: "Maintenance" }
              : { To: m.To, SubmittedAt: new Date().toISOString(), MessageID: `pm-${i}`, ErrorCode: 0, Message: "OK" },
        ),
      );
    });
    const results = await mail.sendBatch!([
      {
        id: "m1",
        to: "ann@example.com",
        subject: "Hi Ann",
        text: "Plain",
        html: "<p>Rich</p>",
        headers: { "X-A": "1" },
      },
      { id: "m2", to: "inactive@example.com", subject: "Hi", text: "Plain" },
      { id: "m3", to: "later@example.com", subject: "Hi", text: "Plain" },
      { id: "m4", to: "bob@example.com", subject: "Hi Bob", text: "Plain" },
    ]);
    expect(results).toEqual([
      { providerMessageId: "pm-0" },
      { error: expect.stringContaining("Postmark 406"), permanent: true },
      { error: "Postmark 100: Maintenance", permanent: false },
      { providerMessageId: "pm-3" },
    ]);
    expect(api.requests).toHaveLength(1);
    const [request] = api.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/email/batch");
    expect(request.headers["x-postmark-server-token"]).toBe("server-token");
    const body = JSON.parse(request.body);
    expect(body).toHaveLength(4);
    expect(body[0]).toMatchObject({
      From: "hello@heirloom.example",
      To: "ann@example.com",
      Subject: "Hi Ann",
      TextBody: "Plain",
      HtmlBody: "<p>Rich</p>",
      Headers: [{ Name: "X-A", Value: "1" }],
      MessageStream: "outbound",
      Metadata: { outbox_id: "m1" },
    });
  });

  it("rejects a whole batch permanently on a 4xx and transiently on a 5xx", async () => {
    const refused = await postmarkWith((_req, res) => sendJson(res, 422, { ErrorCode: 10, Message: "Bad token" }));
    await expect(
      refused.mail.sendBatch!([{ id: "m1", to: "a@example.com", subject: "x", text: "x" }]),
    ).rejects.toBeInstanceOf(PermanentSendError);
    await close?.();
    const down = await postmarkWith((_req, res) => sendJson(res, 503, { ErrorCode: 0, Message: "Unavailable" }));
    const error = await down.mail.sendBatch!([{ id: "m1", to: "a@example.com", subject: "x", text: "x" }]).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentSendError);
  });

  it("tags each message with its outbox id, so a crashed send can be found", async () => {
    const { api, mail } = await postmarkWith((_req, res) =>
      sendJson(res, 200, { MessageID: "pm-1", ErrorCode: 0, Message: "OK" }),
    );
    await mail.send({ id: outboxId, to: "ann@example.com", subject: "Hi", text: "Hello" });
    expect(JSON.parse(api.requests[0].body).Metadata).toEqual({ outbox_id: outboxId });
  });

  it("finds a sent message through GET /messages/outbound by its outbox id and recipient", async () => {
    const { api, mail } = await postmarkWith((_req, res) =>
      sendJson(res, 200, {
        TotalCount: 1,
        Messages: [
          {
            MessageID: "a1b2c3d4-0000-4000-8000-000000000001",
            To: [{ Email: "ann@example.com" }],
            Status: "Sent",
            Metadata: { outbox_id: outboxId },
          },
        ],
      }),
    );
    const found = await mail.findSent(
      { id: outboxId, to: "ann@example.com", subject: "Hi", text: "Hello" },
      new Date(),
    );

    expect(found).toBe("a1b2c3d4-0000-4000-8000-000000000001");
    const [request] = api.requests;
    expect(request.method).toBe("GET");
    const url = new URL(request.url, "http://postmark.test");
    expect(url.pathname).toBe("/messages/outbound");
    expect(url.searchParams.get("metadata_outbox_id")).toBe(outboxId);
    expect(url.searchParams.get("recipient")).toBe("ann@example.com");
    expect(request.headers["x-postmark-server-token"]).toBe("server-token");
  });

  it("finds nothing when Postmark lists no message", async () => {
    const { mail } = await postmarkWith((_req, res) => sendJson(res, 200, { TotalCount: 0, Messages: [] }));
    expect(
      await mail.findSent({ id: outboxId, to: "ann@example.com", subject: "Hi", text: "Hello" }, new Date()),
    ).toBeNull();
  });

  it("turns a 422 (the address can never take it) into a PermanentSendError", async () => {
    const { mail } = await postmarkWith((_req, res) =>
      sendJson(res, 422, {
        ErrorCode: 406,
        Message: "You tried to send to recipient(s) that have been marked as inactive.",
      }),
    );
    const error = await mail
      .send({ id: outboxId, to: "gone@example.com", subject: "x", text: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentSendError);
    expect((error as Error).message).toMatch(/^Postmark 422: .*inactive/);
  });

  it("leaves a 500 (Postmark's own trouble) retryable", async () => {
    const { api, mail } = await postmarkWith((_req, res) =>
      sendJson(res, 500, { ErrorCode: 1, Message: "Internal server error" }),
    );
    const error = await mail
      .send({ id: outboxId, to: "ann@example.com", subject: "x", text: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentSendError);
    expect(api.requests).toHaveLength(1);
  });
});

describe("Twilio SMS", () => {
  const sid = "AC" + "1".repeat(32);

  it("creates a Message through Twilio's REST API", async () => {
    const api = await startFakeApi((_req, res) =>
      sendJson(res, 201, { sid: "SM" + "a".repeat(32), status: "queued", to: "+15555550123" }),
    );
    close = api.close;
    const sms = createTwilioSms({
      TWILIO_ACCOUNT_SID: sid,
      TWILIO_AUTH_TOKEN: "auth-token-1234567890",
      TWILIO_FROM_NUMBER: "+15555550100",
      TWILIO_API_URL: api.url,
      APP_URL: "https://heirloom.example",
    });
    const id = await sms.send({ id: "s1", to: "+15555550123", text: "Reply YES to get story questions." });

    expect(id).toBe("SM" + "a".repeat(32));
    const [request] = api.requests;
    expect(request.method).toBe("POST");
    expect(request.url).toBe(`/2010-04-01/Accounts/${sid}/Messages.json`);
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`${sid}:auth-token-1234567890`).toString("base64")}`,
    );
    const form = new URLSearchParams(request.body);
    expect(Object.fromEntries(form)).toMatchObject({
      To: "+15555550123",
      From: "+15555550100",
      Body: "Reply YES to get story questions.",
    });
  });

  const twilioWith = async (respond: Parameters<typeof startFakeApi>[0]) => {
    const api = await startFakeApi(respond);
    close = api.close;
    return {
      api,
      sms: createTwilioSms({
        TWILIO_ACCOUNT_SID: sid,
        TWILIO_AUTH_TOKEN: "auth-token-1234567890",
        TWILIO_FROM_NUMBER: "+15555550100",
        TWILIO_API_URL: api.url,
        APP_URL: "https://heirloom.example",
      }),
    };
  };
  const outboxId = "4a5b6c7d-8e9f-4a0b-8c1d-2e3f4a5b6c7d";
  const twilioError = (status: number, code: number, message: string) => ({
    code,
    message,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
  });

  it("asks Twilio for status callbacks that carry the outbox id", async () => {
    const { api, sms } = await twilioWith((_req, res) =>
      sendJson(res, 201, { sid: "SM" + "b".repeat(32), status: "queued" }),
    );
    await sms.send({ id: outboxId, to: "+15555550123", text: "Reply YES" });
    const form = new URLSearchParams(api.requests[0].body);
    expect(form.get("StatusCallback")).toBe(`https://heirloom.example/webhooks/twilio/status?m=${outboxId}`);
  });

  it("turns a 400 (say, an opted-out number) into a PermanentSendError", async () => {
    const { sms } = await twilioWith((_req, res) =>
      sendJson(res, 400, twilioError(400, 21610, "Attempt to send to unsubscribed recipient")),
    );
    const error = await sms.send({ id: outboxId, to: "+15555550123", text: "Hi" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentSendError);
    expect((error as Error).message).toMatch(/^Twilio 21610: Attempt to send to unsubscribed recipient/);
  });

  it("leaves a 503 retryable", async () => {
    const { sms } = await twilioWith((_req, res) => sendJson(res, 503, twilioError(503, 20503, "Service unavailable")));
    const error = await sms.send({ id: outboxId, to: "+15555550123", text: "Hi" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentSendError);
  });

  it("finds a sent text by listing Messages.json to the number and matching the body", async () => {
    const since = new Date("2025-03-10T10:00:00Z");
    const rfc2822 = (date: Date) => date.toUTCString().replace("GMT", "+0000");
    const message = (sidChar: string, body: string, at: Date) => ({
      sid: "SM" + sidChar.repeat(32),
      account_sid: sid,
      to: "+15555550123",
      from: "+15555550100",
      body,
      status: "sent",
      direction: "outbound-api",
      date_created: rfc2822(at),
      date_updated: rfc2822(at),
      date_sent: rfc2822(at),
      uri: `/2010-04-01/Accounts/${sid}/Messages/SM${sidChar.repeat(32)}.json`,
    });
    const { api, sms } = await twilioWith((_req, res) =>
      sendJson(res, 200, {
        messages: [
          message("c", "Another question", new Date("2025-03-10T10:00:05Z")),
          message("d", "Reply YES", new Date("2025-03-10T10:00:03Z")),
          message("e", "Reply YES", new Date("2025-03-01T10:00:00Z")),
        ],
        end: 2,
        first_page_uri: `/2010-04-01/Accounts/${sid}/Messages.json?PageSize=20&Page=0`,
        next_page_uri: null,
        page: 0,
        page_size: 20,
        previous_page_uri: null,
        start: 0,
        uri: `/2010-04-01/Accounts/${sid}/Messages.json?PageSize=20&Page=0`,
      }),
    );

    expect(await sms.findSent({ id: outboxId, to: "+15555550123", text: "Reply YES" }, since)).toBe(
      "SM" + "d".repeat(32),
    );
    const [request] = api.requests;
    expect(request.method).toBe("GET");
    const url = new URL(request.url, "http://twilio.test");
    expect(url.pathname).toBe(`/2010-04-01/Accounts/${sid}/Messages.json`);
    expect(url.searchParams.get("To")).toBe("+15555550123");
    expect(url.searchParams.get("From")).toBe("+15555550100");

    // Only the old copy of the same text: that was an earlier message, not this one.
    expect(
      await sms.findSent({ id: outboxId, to: "+15555550123", text: "Reply YES" }, new Date("2025-03-20T10:00:00Z")),
    ).toBeNull();
    expect(await sms.findSent({ id: outboxId, to: "+15555550123", text: "Not sent" }, since)).toBeNull();
  });
});
