import { ServerClient } from "postmark";
import type { Config } from "~/config.server";
import { log } from "./logger.server";
import { isPermanentStatus, PermanentSendError } from "./send-errors.server";

export type MailMessage = {
  /** The outbox row this message came from; providers may use it as a correlation id. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers?: Record<string, string>;
};

/** A provider's word on one message of a batch, in the order sent. */
export type MailBatchResult = { providerMessageId: string } | { error: string; permanent: boolean };

export interface MailService {
  readonly name: "outbox" | "postmark";
  /**
   * Hands the message to the provider; resolves with the provider's message id. Rejects with a
   * PermanentSendError when retrying cannot help.
   */
  send(message: MailMessage): Promise<string>;
  /**
   * After a crash mid-send: the provider's id for this message if it accepted it, else null.
   * `since` is when the send was attempted.
   */
  findSent(message: MailMessage, since: Date): Promise<string | null>;
  /**
   * Hands many messages over in one call, one result per message in order. Rejects (a
   * PermanentSendError when retrying cannot help) only when the call as a whole failed.
   */
  sendBatch?(messages: MailMessage[]): Promise<MailBatchResult[]>;
}

/** No provider configured: the outbox row is the delivery. Printed to the console in development. */
export function createOutboxMail(options: { print: boolean }): MailService {
  const send = async (message: MailMessage) => {
    if (options.print) {
      log.info({ module: "outbox" }, `email to ${message.to}: ${message.subject}\n${message.text}`);
    }
    return `outbox-${message.id}`;
  };
  return {
    name: "outbox",
    send,
    async sendBatch(messages) {
      return Promise.all(messages.map(async (message) => ({ providerMessageId: await send(message) })));
    },
    // The outbox row is the delivery: once claimed, it has been "sent".
    async findSent(message) {
      return `outbox-${message.id}`;
    },
  };
}

export function createPostmarkMail(
  config: Pick<Config, "POSTMARK_SERVER_TOKEN" | "POSTMARK_API_URL" | "MAIL_FROM">,
): MailService {
  const apiUrl = config.POSTMARK_API_URL ? new URL(config.POSTMARK_API_URL) : undefined;
  const client = new ServerClient(config.POSTMARK_SERVER_TOKEN!, {
    useHttps: apiUrl ? apiUrl.protocol === "https:" : true,
    requestHost: apiUrl?.host ?? "api.postmarkapp.com",
    timeout: 30,
  });
  const asPostmark = (message: MailMessage) => ({
    From: config.MAIL_FROM,
    To: message.to,
    Subject: message.subject,
    TextBody: message.text,
    HtmlBody: message.html ?? undefined,
    // Postmark takes Reply-To as its own field, not as a custom header.
    ReplyTo: message.headers?.["Reply-To"],
    Headers: Object.entries(message.headers ?? {})
      .filter(([name]) => name !== "Reply-To")
      .map(([Name, Value]) => ({ Name, Value })),
    MessageStream: "outbound",
    Metadata: { outbox_id: message.id },
  });
  const refused = (error: { statusCode?: number; message?: string }) => {
    if (isPermanentStatus(error.statusCode))
      throw new PermanentSendError(`Postmark ${error.statusCode}: ${error.message}`);
    throw error;
  };
  return {
    name: "postmark",
    async send(message) {
      const result = await client.sendEmail(asPostmark(message)).catch(refused);
      return result.MessageID;
    },
    // POST /email/batch: up to 500 messages, one answer each. A message's own ErrorCode is
    // Postmark's API error (an address it refuses, an inactive recipient): permanent, as the same
    // refusal is for a single send (HTTP 422), except 100, maintenance, which passes.
    async sendBatch(messages) {
      const results = await client.sendEmailBatch(messages.map(asPostmark)).catch(refused);
      return results.map((result) =>
        result.ErrorCode === 0
          ? { providerMessageId: result.MessageID }
          : { error: `Postmark ${result.ErrorCode}: ${result.Message}`, permanent: result.ErrorCode !== 100 },
      );
    },
    // Postmark's outbound search filters on the metadata every message carries.
    // (Its date filters are in US Eastern time, so the id alone narrows the search.)
    async findSent(message) {
      const found = await client.getOutboundMessages({
        count: 1,
        offset: 0,
        recipient: message.to,
        metadata_outbox_id: message.id,
      });
      return found.Messages[0]?.MessageID ?? null;
    },
  };
}

export function createMailService(config: Config): MailService {
  return config.mailUsesOutbox
    ? createOutboxMail({ print: config.NODE_ENV === "development" })
    : createPostmarkMail(config);
}
