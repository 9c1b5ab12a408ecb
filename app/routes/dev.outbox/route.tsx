import { parseWithZod } from "@conform-to/zod/v4";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useLoaderData, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors, replyErrors } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { newSubmissionId } from "~/models/form-submission.server";
import type { SimulatedTurn } from "~/models/phone-simulator.server";
import { handleInboundSms } from "~/models/sms-consent.server";
import { listOutboxMessages, queueSms } from "~/services/outbox.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { displayPhoneNumber } from "~/utils/phone-display";
import { readForm } from "~/utils/request-body.server";
import { EMAIL_REPLY_ACTION, PHONE_ACTION, PhoneIntent } from "./intents";
import { replySchema } from "./schema";
import { emailReplyAction, phoneAction, type PhoneResult, whatsappAction } from "./server";
import { WhatsAppReply, WhatsAppSimulator } from "./whatsapp-simulator";

/** WhatsApp goes to the outbox (and its simulator) while Twilio is not configured, as texts do. */
const whatsappSimulated = (config: LoaderArgs["context"]["config"]) => config.smsUsesOutbox;

export const handle = { i18n: ["common", "phone", "whatsapp"] };

export const meta = titleFromLoader;

// Only while mail or SMS goes to the built-in outbox, and only to this machine: otherwise 404.
export async function loader({ request, context }: LoaderArgs) {
  const channels = [
    ...(context.config.mailUsesOutbox ? ["email" as const] : []),
    ...(context.config.smsUsesOutbox ? ["sms" as const] : []),
    ...(context.config.voiceUsesSimulator ? ["call" as const] : []),
    ...(whatsappSimulated(context.config) ? ["whatsapp" as const] : []),
  ];
  if (!channels.length || !context.fromLoopback) throw new Response(null, { status: 404 });
  const messages = await listOutboxMessages(context.db, channels);
  return {
    title: await pageTitle(request, context, "outbox.title"),
    messages: messages.map(({ headers, ...m }) => ({
      ...m,
      created_at: m.created_at.toISOString(),
      // A question email's Reply-To, and this page's id for a reply to it (posting it twice is one reply).
      reply:
        m.channel === "email" && headers["Reply-To"] ? { to: headers["Reply-To"], messageId: newSubmissionId() } : null,
    })),
    whatsapp: whatsappSimulated(context.config),
    phoneNumber:
      context.config.voiceUsesSimulator && context.config.voiceNumber
        ? displayPhoneNumber(context.config.voiceNumber)
        : null,
  };
}

/**
 * Stands in for a Storyteller texting back (YES, STOP, HELP) while texts go to the outbox: the same
 * handler as Twilio's inbound webhook, and its answer lands in the outbox too.
 */
export async function action({ request, context }: ActionArgs) {
  const search = new URL(request.url).searchParams;
  if (search.has("email-reply")) {
    if (!context.config.mailUsesOutbox || !context.fromLoopback) throw new Response(null, { status: 404 });
    return emailReplyAction(request, context);
  }
  if (search.has("whatsapp")) {
    if (!whatsappSimulated(context.config) || !context.fromLoopback) throw new Response(null, { status: 404 });
    return whatsappAction(request, context);
  }
  const phone = search.has("phone");
  if (phone) {
    if (!context.config.voiceUsesSimulator || !context.fromLoopback) throw new Response(null, { status: 404 });
    return phoneAction(request, context);
  }
  if (!context.config.smsUsesOutbox || !context.fromLoopback) throw new Response(null, { status: 404 });
  const submission = parseWithZod(await readForm(request), { schema: replySchema });
  if (submission.status !== "success")
    return data<PhoneResult>({ phone: null, result: submission.reply() }, { status: 400 });
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

/** Hidden fields naming the call a form belongs to. */
function CallFields({ turn }: { turn: SimulatedTurn }) {
  return (
    <>
      <input type="hidden" name="from" value={turn.from} />
      <input type="hidden" name="callSid" value={turn.callSid} />
    </>
  );
}

/** One press of the simulated phone that sends no keys: stay quiet, keep silent, hang up. */
function CallButton({
  turn,
  intent,
  step,
  label,
}: {
  turn: SimulatedTurn;
  intent: (typeof PhoneIntent)[keyof typeof PhoneIntent];
  step?: string;
  label: string;
}) {
  return (
    <Form method="post" action={PHONE_ACTION}>
      <input type="hidden" name="intent" value={intent} />
      {step ? <input type="hidden" name="step" value={step} /> : null}
      <CallFields turn={turn} />
      <button type="submit" className="btn-secondary">
        {label}
      </button>
    </Form>
  );
}

/** The phone simulator: call, hear the script as text, press keys, give a WAV as the spoken answer. */
function PhoneSimulator({ number }: { number: string }) {
  const { t } = useTranslation("phone");
  const result = useActionData<PhoneResult>();
  const turn = result?.phone ?? null;
  return (
    <section
      aria-labelledby="phone-heading"
      className="mb-8 rounded-lg border border-line bg-panel p-4"
      data-testid="phone-simulator"
    >
      <h2 id="phone-heading" className="text-xl font-semibold">
        {t("simulator.title")}
      </h2>
      <p className="mb-3 text-sm text-muted">{t("simulator.intro", { number })}</p>
      <Form method="post" action={PHONE_ACTION} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value={PhoneIntent.call} />
        <label className="flex flex-col gap-1 text-sm">
          {t("simulator.from")}
          <input name="from" required defaultValue={turn?.from ?? "+15555550123"} className="input" />
        </label>
        <button type="submit" className="btn-secondary">
          {t("simulator.call")}
        </button>
      </Form>
      {turn ? (
        <div className="mt-4 flex flex-col gap-3">
          <h3 className="font-medium">{t("simulator.heard")}</h3>
          <ol className="flex flex-col gap-1" data-testid="phone-heard">
            {turn.heard.map((line, index) =>
              typeof line === "string" ? (
                <li key={index}>{line}</li>
              ) : (
                <li key={index} className="flex flex-col gap-1">
                  {t("simulator.plays")}
                  <audio controls src={line.play} aria-label={t("simulator.plays")} data-testid="phone-playback" />
                </li>
              ),
            )}
          </ol>
          {result?.phoneError ? (
            <p role="alert" className="text-danger">
              {t(result.phoneError)}
            </p>
          ) : null}
          {turn.ended ? <p role="status">{t("simulator.ended")}</p> : null}
          {!turn.ended && turn.gather ? (
            <Form method="post" action={PHONE_ACTION} className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value={PhoneIntent.keys} />
              <input type="hidden" name="step" value={turn.gather.step} />
              <CallFields turn={turn} />
              <label className="flex flex-col gap-1 text-sm">
                {t("simulator.keys")}
                <input
                  name="digits"
                  inputMode="numeric"
                  pattern="[0-9*#]*"
                  maxLength={turn.gather.numDigits ?? 20}
                  required={!turn.gather.onEmpty}
                  autoComplete="off"
                  className="input"
                />
              </label>
              <button type="submit" className="btn-secondary">
                {t("simulator.press")}
              </button>
            </Form>
          ) : null}
          {!turn.ended && turn.gather?.onEmpty ? (
            <CallButton turn={turn} intent={PhoneIntent.keys} step={turn.gather.step} label={t("simulator.wait")} />
          ) : null}
          {!turn.ended && turn.record ? (
            <Form
              method="post"
              action={PHONE_ACTION}
              encType="multipart/form-data"
              className="flex flex-wrap items-end gap-2"
            >
              <input type="hidden" name="step" value={turn.record.step} />
              <CallFields turn={turn} />
              <label className="flex flex-col gap-1 text-sm">
                {t("simulator.record")}
                <input type="file" name="audio" accept="audio/*" required />
              </label>
              <button type="submit" className="btn-secondary">
                {t("simulator.speak")}
              </button>
            </Form>
          ) : null}
          {!turn.ended && turn.record?.silenceStep ? (
            <CallButton
              turn={turn}
              intent={PhoneIntent.keys}
              step={turn.record.silenceStep}
              label={t("simulator.silent")}
            />
          ) : null}
          {!turn.ended ? <CallButton turn={turn} intent={PhoneIntent.hangUp} label={t("simulator.hangUp")} /> : null}
        </div>
      ) : null}
    </section>
  );
}

/** Under a question email: her reply to it (words, a recording or a picture), as if she pressed Reply. */
function EmailReply({ from, to, messageId }: { from: string; to: string; messageId: string }) {
  const { t } = useTranslation();
  return (
    <Form
      method="post"
      action={EMAIL_REPLY_ACTION}
      encType="multipart/form-data"
      className="mt-3 flex flex-col gap-2"
      data-testid="email-reply"
    >
      <h3 className="text-sm font-medium">{t("outbox.emailReply.title")}</h3>
      {/* The fields before the file: a file too large still leaves who wrote to which question. */}
      <input type="hidden" name="replyTo" value={to} />
      <input type="hidden" name="from" value={from} />
      <input type="hidden" name="messageId" value={messageId} />
      <label className="flex flex-col gap-1 text-sm" htmlFor={`reply-text-${messageId}`}>
        {t("outbox.emailReply.text")}
        <textarea id={`reply-text-${messageId}`} name="text" rows={4} maxLength={20000} className="input" />
      </label>
      <label className="flex flex-col gap-1 text-sm" htmlFor={`reply-file-${messageId}`}>
        {t("outbox.emailReply.attachment")}
        <input id={`reply-file-${messageId}`} type="file" name="attachment" />
      </label>
      <button type="submit" className="btn-secondary self-start">
        {t("outbox.emailReply.send")}
      </button>
    </Form>
  );
}

export default function DevOutbox() {
  const { messages, phoneNumber, whatsapp } = useLoaderData<typeof loader>();
  const refused = useActionData<PhoneResult>();
  const { t } = useTranslation();
  return (
    <main id="main" className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="mb-2 text-2xl font-bold">{t("outbox.title")}</h1>
      <p className="mb-6 text-muted">{t("outbox.intro")}</p>
      {/* A refused reply or simulator step: what was wrong, in the reader's language. */}
      <div role="alert">
        <FieldErrors id="outbox-errors" errors={replyErrors(refused?.result)} />
      </div>
      {phoneNumber ? <PhoneSimulator number={phoneNumber} /> : null}
      {whatsapp ? <WhatsAppSimulator /> : null}
      {messages.length === 0 ? <p>{t("outbox.empty")}</p> : null}
      <ol className="flex flex-col gap-4">
        {messages.map((message) => (
          <li key={message.id} className="rounded-lg border border-line bg-panel p-4" data-testid="outbox-message">
            <p className="text-sm text-muted">
              {t(`outbox.channel.${message.channel}`)} ·{" "}
              {t(message.direction === "inbound" ? "outbox.from" : "outbox.to")}{" "}
              <span data-testid="outbox-to">{message.to_address}</span> ·{" "}
              <time dateTime={message.created_at}>{message.created_at.replace("T", " ").slice(0, 19)} UTC</time> ·{" "}
              {t(`outbox.status.${message.status}`)}
            </p>
            {message.subject ? <h2 className="mt-1 font-semibold">{message.subject}</h2> : null}
            <pre className="mt-2 whitespace-pre-wrap font-sans text-sm">
              <LinkifiedText text={message.text_body} />
            </pre>
            {message.channel === "call" && message.status === "sent" && phoneNumber ? (
              <Form method="post" action={PHONE_ACTION} className="mt-3 flex flex-wrap gap-2">
                <input type="hidden" name="intent" value={PhoneIntent.answer} />
                <input type="hidden" name="messageId" value={message.id} />
                <button type="submit" name="answeredBy" value="human" className="btn-secondary">
                  {t("outbox.answerCall")}
                </button>
                <button type="submit" name="answeredBy" value="machine_end_beep" className="btn-secondary">
                  {t("outbox.machineAnswers")}
                </button>
              </Form>
            ) : null}
            {message.reply ? <EmailReply from={message.to_address} {...message.reply} /> : null}
            {message.channel === "whatsapp" && message.direction === "outbound" && message.status === "sent" ? (
              <WhatsAppReply to={message.to_address} repliedTo={message.provider_message_id} />
            ) : null}
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
