import { parseWithZod } from "@conform-to/zod/v4";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { Form, useLoaderData, redirect } from "react-router";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { handleInboundSms } from "~/models/sms-consent.server";
import { listOutboxMessages, queueSms } from "~/services/outbox.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";

export const meta = titleFromLoader;

/** A reply typed under a text: the number it went to and what the Storyteller would text back. */
const replySchema = z.object({
  from: z.string().regex(/^\+[1-9]\d{6,14}$/),
  body: z
    .string()
    .transform((body) => body.slice(0, 160))
    .refine((body) => body.trim().length > 0),
});

// Only while mail or SMS goes to the built-in outbox, and only to this machine: otherwise 404.
export async function loader({ request, context }: LoaderArgs) {
  const channels = [
    ...(context.config.mailUsesOutbox ? ["email" as const] : []),
    ...(context.config.smsUsesOutbox ? ["sms" as const] : []),
  ];
  if (!channels.length || !context.fromLoopback) throw new Response(null, { status: 404 });
  const messages = await listOutboxMessages(context.db, channels);
  return {
    title: await pageTitle(request, context, "outbox.title"),
    messages: messages.map((m) => ({ ...m, created_at: m.created_at.toISOString() })),
  };
}

/**
 * Stands in for a Storyteller texting back (YES, STOP, HELP) while texts go to the outbox: the same
 * handler as Twilio's inbound webhook, and its answer lands in the outbox too.
 */
export async function action({ request, context }: ActionArgs) {
  if (!context.config.smsUsesOutbox || !context.fromLoopback) throw new Response(null, { status: 404 });
  const submission = parseWithZod(await readForm(request), { schema: replySchema });
  if (submission.status !== "success") throw new Response("Bad Request", { status: 400 });
  const { from, body } = submission.value;
  const reply = await handleInboundSms(context.db, context.config, { from, body });
  if (reply) await queueSms(context.db, { to: from, text: reply });
  return redirect("/dev/outbox");
}

const URL_PATTERN = /(https?:\/\/[^\s<>"']+)/g;

/** Plain text with its links made clickable (sign-in and record links are what people come here for). */
function LinkifiedText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="link break-all">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default function DevOutbox() {
  const { messages } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="mb-2 text-2xl font-bold">{t("outbox.title")}</h1>
      <p className="mb-6 text-muted">{t("outbox.intro")}</p>
      {messages.length === 0 ? <p>{t("outbox.empty")}</p> : null}
      <ol className="flex flex-col gap-4">
        {messages.map((message) => (
          <li key={message.id} className="rounded-lg border border-line bg-panel p-4" data-testid="outbox-message">
            <p className="text-sm text-muted">
              {t(`outbox.channel.${message.channel}`)} · {t("outbox.to")}{" "}
              <span data-testid="outbox-to">{message.to_address}</span> ·{" "}
              <time dateTime={message.created_at}>{message.created_at.replace("T", " ").slice(0, 19)} UTC</time> ·{" "}
              {t(`outbox.status.${message.status}`)}
            </p>
            {message.subject ? <h2 className="mt-1 font-semibold">{message.subject}</h2> : null}
            <pre className="mt-2 whitespace-pre-wrap font-sans text-sm">
              <LinkifiedText text={message.text_body} />
            </pre>
            {message.channel === "sms" ? (
              <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
                <input type="hidden" name="from" value={message.to_address} />
                <label className="flex flex-col gap-1 text-sm">
                  {t("outbox.replyLabel")}
                  <input name="body" required maxLength={160} className="input" />
                </label>
                <button type="submit" className="btn-secondary">
                  {t("outbox.replySubmit")}
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ol>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
