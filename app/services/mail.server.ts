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
}

/** No provider configured: the outbox row is the delivery. Printed to the console in development. */
export function createOutboxMail(options: { print: boolean }): MailService {
  return {
    name: "outbox",
    async send(message) {
      if (options.print) {
        log.info({ module: "outbox" }, `email to ${message.to}: ${message.subject}\n${message.text}`);
      }
      return `outbox-${message.id}`;
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
  return {
    name: "postmark",
    async send(message) {
      const result = await client
        .sendEmail({
          From: config.MAIL_FROM,
          To: message.to,
          Subject: message.subject,
          TextBody: message.text,
          HtmlBody: message.html ?? undefined,
          Headers: Object.entries(message.headers ?? {}).map(([Name, Value]) => ({ Name, Value })),
          MessageStream: "outbound",
          Metadata: { outbox_id: message.id },
        })
        .catch((error: { statusCode?: number; message?: string }) => {
          if (isPermanentStatus(error.statusCode))
            throw new PermanentSendError(`Postmark ${error.statusCode}: ${error.message}`);
          throw error;
        });
      return result.MessageID;
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
