import { ServerClient } from "postmark";
import type { Config } from "~/config.server";

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
  /** Hands the message to the provider; resolves with the provider's message id. */
  send(message: MailMessage): Promise<string>;
}

/** No provider configured: the outbox row is the delivery. Printed to the console in development. */
export function createOutboxMail(options: { print: boolean }): MailService {
  return {
    name: "outbox",
    async send(message) {
      if (options.print) {
        console.log(`[outbox] email to ${message.to}: ${message.subject}\n${message.text}\n`);
      }
      return `outbox-${message.id}`;
    },
  };
}

export function createPostmarkMail(config: Pick<Config, "POSTMARK_SERVER_TOKEN" | "POSTMARK_API_URL" | "MAIL_FROM">): MailService {
  const apiUrl = config.POSTMARK_API_URL ? new URL(config.POSTMARK_API_URL) : undefined;
  const client = new ServerClient(config.POSTMARK_SERVER_TOKEN!, {
    useHttps: apiUrl ? apiUrl.protocol === "https:" : true,
    requestHost: apiUrl?.host ?? "api.postmarkapp.com",
    timeout: 30,
  });
  return {
    name: "postmark",
    async send(message) {
      const result = await client.sendEmail({
        From: config.MAIL_FROM,
        To: message.to,
        Subject: message.subject,
        TextBody: message.text,
        HtmlBody: message.html ?? undefined,
        Headers: Object.entries(message.headers ?? {}).map(([Name, Value]) => ({ Name, Value })),
        MessageStream: "outbound",
        Metadata: { outbox_id: message.id },
      });
      return result.MessageID;
    },
  };
}

export function createMailService(config: Config): MailService {
  return config.mailUsesOutbox
    ? createOutboxMail({ print: config.NODE_ENV === "development" })
    : createPostmarkMail(config);
}
