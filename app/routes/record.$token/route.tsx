import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, type HeadersFunction, redirect, useActionData, useLoaderData } from "react-router";
import { AnswerRecorder, RecordButton } from "~/components/answer-recorder";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { markOpened, skipPrompt } from "~/models/answer.server";
import { capabilityPageHeaders, promptForRecordToken } from "~/models/capability-links.server";
import { recordPageState } from "~/models/record-page.server";
import { sendAnswerToSomeone } from "~/models/send-to-someone.server";
import stylesheet from "~/tailwind.css?url";
import { inlineStylesheet } from "~/utils/inline-stylesheet.server";
import { titleFromLoader } from "~/utils/meta";
import { readForm } from "~/utils/request-body.server";
import { standaloneScript } from "~/utils/standalone-scripts.server";
import { Intent, recordFormSchema } from "./schema";
import { answerFromFileForm, reply } from "./server";

// Served without React in the browser (see app/root.tsx): the page is whole without JavaScript,
// and the recorder script enhances it.
export const handle = { i18n: ["record"], standalone: true };
export const meta = titleFromLoader;
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

export async function loader({ request, context, params }: LoaderArgs) {
  const t = await getServerT(request, context, "record");
  const title = (key: string) => `${t(key)} · ${context.config.APP_NAME}`;
  const scripts = [standaloneScript(context.config, "recorder")];
  // Inlined: the question paints with the HTML, without waiting for a second request (decision 039).
  const inlineStyles = inlineStylesheet(context.config, stylesheet);
  if (params.token === "sample") {
    const sampleQuestion = (await getServerT(request, context, "delivery"))("testPrompt");
    return data(
      {
        kind: "sample" as const,
        title: title("sampleTitle"),
        prompt: sampleQuestion,
        scripts: [] as string[],
        inlineStyles,
      },
      { headers: capabilityPageHeaders },
    );
  }
  const state = await recordPageState(context, params.token!);
  if (!state)
    return data(
      { kind: "not-found" as const, title: title("notFoundTitle"), scripts: [] as string[], inlineStyles },
      { status: 404, headers: capabilityPageHeaders },
    );
  // Her page is in her language, whatever the link said when it was sent: the whole page, not just
  // the parts made from her row, so the page is asked again in it. Only a link that names another
  // language: the loader also runs after her form's post, whose answer a redirect would throw away.
  const url = new URL(request.url);
  const linkLanguage = url.searchParams.get("lng");
  if (linkLanguage !== null && linkLanguage !== state.language) {
    url.searchParams.set("lng", state.language);
    throw redirect(url.pathname + url.search, { headers: capabilityPageHeaders });
  }
  // ?submitted=1: the recorder's upload just finished (the server checked and stored it).
  const submitted = Boolean(state.answer) && new URL(request.url).searchParams.has("submitted");
  return data(
    {
      kind: "prompt" as const,
      title: title("title"),
      ...state,
      submitted,
      // "Send to someone" reaches any mobile by WhatsApp where it is set up.
      anyMobile: context.config.whatsappOn,
      scripts: state.answer || state.skipped ? [] : scripts,
      inlineStyles,
    },
    { headers: capabilityPageHeaders },
  );
}

/**
 * Without JavaScript: the answer as a plain multipart post, "skip", and "send to someone"; with it,
 * also the recorder's "opened" signal. Uploads with JavaScript go through /uploads (tus) instead.
 * Any other post is a 400 (the page says no answer came).
 */
export async function action({ request, context, params }: ActionArgs) {
  const prompt = await promptForRecordToken(context, params.token!);
  if (!prompt) return reply({ ok: false, error: "upload.gone" }, 404);
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data"))
    return answerFromFileForm(context, request, prompt.id);

  const submission = parseWithZod(await readForm(request), { schema: recordFormSchema });
  if (submission.status !== "success") return reply({ ok: false, error: "upload.missing" }, 400);
  const input = submission.value;
  switch (input.intent) {
    case Intent.sendToSomeone: {
      const sent = await sendAnswerToSomeone(context, prompt, input.to);
      return sent.ok
        ? reply({ ok: true, sentTo: sent.address })
        : reply({ ok: false, sendError: `share.${sent.error}` }, sent.error === "tooMany" ? 429 : 400);
    }
    case Intent.opened:
      await markOpened(context, prompt.id);
      return reply({ ok: true });
    case Intent.skip:
      // Not once an answer is in (the page then shows the answer).
      return reply({ ok: true, skipped: await skipPrompt(context, prompt.id) });
  }
}

export default function RecordPage() {
  const { t } = useTranslation("record");
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (page.kind === "not-found") {
    return (
      <main id="main" className="record-page">
        <h1 className="text-3xl font-bold">{t("notFoundTitle")}</h1>
        <p>{t("notFound")}</p>
      </main>
    );
  }
  if (page.kind === "sample") {
    return (
      <main id="main" className="record-page">
        <h1 className="text-2xl font-bold">{t("sampleTitle")}</h1>
        <p className="rounded-xl border border-line bg-panel p-5 text-2xl leading-snug font-semibold">{page.prompt}</p>
        <p>{t("sample")}</p>
        {/* Her Record button, in no form and with no script: pressing it here records and sends nothing. */}
        <div
          className="flex flex-col gap-3 rounded-xl border border-dashed border-line p-4"
          data-testid="record-preview"
        >
          <p className="text-2xl font-semibold">{t("ready")}</p>
          <RecordButton aria-describedby="record-preview-note" className="btn-primary self-start px-8 py-5 text-2xl" />
          <p id="record-preview-note" className="text-base text-muted">
            {t("samplePreview")}
          </p>
        </div>
      </main>
    );
  }
  const done = page.answer || (result?.ok === true && !result.sentTo);
  return (
    <main id="main" className="record-page" data-recorder-root>
      <header className="flex items-center gap-3">
        {page.photoUrl ? (
          <img src={page.photoUrl} alt="" width={56} height={56} className="size-14 rounded-full object-cover" />
        ) : null}
        <p className="text-lg">{t("from", { asker: page.askerName })}</p>
      </header>
      <h1 className="rounded-xl border border-line bg-panel p-5 text-2xl leading-snug font-semibold">{page.prompt}</h1>

      {page.skipped || result?.skipped ? (
        <p role="status">{t("skipped")}</p>
      ) : done ? (
        <section aria-labelledby="answer-heading" className="flex flex-col gap-3">
          <div role="status">
            <h2 id="answer-heading" className="text-3xl font-bold">
              {(result?.ok && !result.sentTo) || page.submitted ? t("submitted") : t("yourAnswer")}
            </h2>
            <p>{t("thanks", { asker: page.askerName })}</p>
          </div>
          {page.answer?.audioUrl ? (
            <audio controls preload="none" src={page.answer.audioUrl} className="w-full" />
          ) : null}
          {page.answer?.isPrivate ? <p className="text-muted">{t("privateAnswer")}</p> : null}
          {page.answer && !page.answer.isPrivate ? (
            <Form method="post" className="mt-2 flex flex-col gap-3 rounded-lg border border-line p-4" reloadDocument>
              <h3 className="text-lg font-semibold">{t("share.title")}</h3>
              <p className="text-base text-muted">{t("share.lead")}</p>
              <input type="hidden" name="intent" value={Intent.sendToSomeone} />
              <label className="flex flex-col gap-2">
                <span>{t(page.anyMobile ? "share.labelAnyMobile" : "share.label")}</span>
                <input
                  name="to"
                  required
                  maxLength={254}
                  autoComplete="off"
                  className="input"
                  aria-invalid={result?.sendError ? true : undefined}
                />
              </label>
              {result?.sendError ? (
                <p role="alert" className="text-danger">
                  {t(result.sendError)}
                </p>
              ) : null}
              {result?.sentTo ? <p role="status">{t("share.sent", { address: result.sentTo })}</p> : null}
              <button type="submit" className="btn-secondary self-start px-5 py-3">
                {t("share.button")}
              </button>
            </Form>
          ) : null}
        </section>
      ) : (
        <AnswerRecorder error={result?.error} recorderText={page.recorderText}>
          <details className="rounded-lg border border-line p-3">
            <summary className="min-h-11 cursor-pointer py-2">{t("skip")}</summary>
            <Form method="post" className="mt-3 flex flex-col gap-3" reloadDocument>
              <input type="hidden" name="intent" value={Intent.skip} />
              <label className="flex min-h-11 items-start gap-3 py-2">
                <input type="checkbox" name="confirm" required className="mt-1 size-6 shrink-0" />
                <span>{t("skipConfirm")}</span>
              </label>
              <button type="submit" className="btn-secondary self-start px-5 py-3">
                {t("skipButton")}
              </button>
            </Form>
          </details>
        </AnswerRecorder>
      )}
      {page.callInText && !done && !(page.skipped || result?.skipped) ? (
        <p className="text-lg" data-testid="call-in">
          {page.callInText}
        </p>
      ) : null}
      {page.otherQuestions.length ? (
        <nav aria-labelledby="other-questions" className="flex flex-col gap-2 border-t border-line pt-4">
          <h2 id="other-questions" className="text-xl font-semibold">
            {t("otherQuestions")}
          </h2>
          <p className="text-base text-muted">{t("otherQuestionsLead")}</p>
          <ul className="flex flex-col gap-1">
            {page.otherQuestions.map((other) => (
              <li key={other.url}>
                <a href={other.url} className="inline-flex min-h-11 items-center underline" data-leave-check>
                  {other.text}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
