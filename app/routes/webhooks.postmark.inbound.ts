import type { Models } from "postmark";
import { z } from "zod";
import type { ActionArgs } from "~/context.server";
import { receiveEmailReply } from "~/models/email-reply.server";
import { MAX_UPLOAD_BYTES } from "~/services/audio-check.server";
import { replyWords } from "~/services/reply-words.server";
import { verifyPostmarkWebhook } from "~/services/webhooks.server";
import { readJson } from "~/utils/request-body.server";
import { noControlCharacters, withoutControlCharacters } from "~/utils/validation";

/**
 * The most an inbound email posts: Postmark takes messages up to 35 MB, attachments in base64
 * included; a larger body is read no further (413).
 */
export const MAX_INBOUND_EMAIL_BYTES = 36 * 1024 * 1024;

// What names the message and its sender must be as Postmark writes them: a control character
// (NUL) there is a forged or garbled post, refused. Her words only lose theirs.
const plain = z.string().max(1000).refine(noControlCharacters);
const text = z.string().transform(withoutControlCharacters).optional();
const inboundSchema = z.object({
  MessageID: plain.min(1),
  From: plain.min(3),
  To: plain.optional(),
  Cc: plain.optional(),
  OriginalRecipient: plain.optional(),
  MailboxHash: plain.optional(),
  TextBody: text,
  HtmlBody: text,
  StrippedTextReply: text,
  Attachments: z
    .array(
      z.object({
        Name: z.string().max(1000).transform(withoutControlCharacters),
        Content: z.string(),
        ContentType: z.string().max(200).transform(withoutControlCharacters),
        ContentLength: z.number().int().nonnegative().optional(),
      }),
    )
    .max(20)
    .optional(),
}) satisfies z.ZodType<Partial<Pick<Models.InboundMessageDetails, "MessageID" | "From" | "MailboxHash">>>;

const addresses = (...fields: (string | undefined)[]) =>
  fields.flatMap((field) => (field ? field.split(",").map((address) => address.trim()) : []));

/**
 * Postmark's inbound webhook (decision 078): a reply to a question email, authenticated by the
 * basic-auth credentials in the URL we gave Postmark. It always answers 200 once the post is
 * read, whatever becomes of the reply, so Postmark does not send it again; she is told by email.
 */
export async function action({ request, context }: ActionArgs) {
  verifyPostmarkWebhook(request, context.config);
  const parsed = inboundSchema.safeParse(await readJson(request, MAX_INBOUND_EMAIL_BYTES));
  if (!parsed.success) return new Response(null, { status: 400 });
  const mail = parsed.data;
  const outcome = await receiveEmailReply(context, {
    messageId: mail.MessageID,
    from: mail.From,
    to: addresses(mail.OriginalRecipient, mail.To, mail.Cc),
    mailboxHash: mail.MailboxHash || null,
    words: replyWords({ strippedText: mail.StrippedTextReply, text: mail.TextBody, html: mail.HtmlBody }),
    attachments: (mail.Attachments ?? []).map((attachment) => {
      // A file past what an answer may be is not decoded: its size is enough to refuse it.
      const size = attachment.ContentLength ?? Math.floor((attachment.Content.length * 3) / 4);
      return {
        name: attachment.Name,
        contentType: attachment.ContentType,
        size,
        content: size > MAX_UPLOAD_BYTES ? null : Buffer.from(attachment.Content, "base64"),
      };
    }),
  });
  return Response.json({ outcome });
}

export const loader = () => new Response(null, { status: 405 });
