import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors } from "~/components/forms";
import { ExportCard, KeepsakeList } from "~/components/keepsakes";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { redirectWithToast } from "~/services/toast.server";
import { idParam } from "~/utils/ids";
import { storiesTitle } from "~/utils/keepsake-name";
import { titleFromLoader } from "~/utils/meta";
import { BINDINGS, TRIM_NAMES, TRIMS } from "~/utils/print-geometry";
import { readForm } from "~/utils/request-body.server";
import { CoverForm } from "./cover-form";
import { Intent, MAX_TITLE } from "./intents";
import { keepSchema } from "./schema";
import { chromiumAvailable, keepPage, orderedAnswerIds, requestBook, revokeListenLink, saveCover } from "./server";

// Keeping it forever (decision 023): a Storyteller's export, keepsake book and listen links, for
// their owner and collaborators (non-private answers only).
export const handle = { i18n: ["keep", "words"] };
export const meta = titleFromLoader;

const notFound = () => new Response(null, { status: 404 });

export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const page = await keepPage(context, user.id, idParam(params.id));
  if (!page) throw notFound();
  const t = await getServerT(request, context, "keep");
  return { title: `${t("title", { name: page.storyteller.firstName })} · ${context.config.APP_NAME}`, ...page };
}

export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const storytellerId = idParam(params.id);
  const back = `/dashboard/recipient/${storytellerId}/keep`;
  // Only the cover form sends a file.
  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    const saved = await saveCover(context, request, user.id, storytellerId);
    if (saved.kind === "not-found") throw notFound();
    // A photo refused by its declared size: a 413, so the browser stops sending the rest.
    if (saved.kind === "refused")
      return data({ result: undefined, coverError: saved.error }, { status: saved.unread ? 413 : 400 });
    return redirectWithToast(request, context, back, { type: "success", key: "keep:toast.coverSaved" });
  }
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: keepSchema });
  if (submission.status !== "success") {
    if (submission.payload.intent !== Intent.book && submission.payload.intent !== Intent.print)
      throw new Response("Bad Request", { status: 400 });
    return data({ result: submission.reply() }, { status: 400 });
  }
  const input = submission.value;
  if (input.intent === Intent.revokeLink) {
    if (!(await revokeListenLink(context.db, user.id, storytellerId, input.linkId))) throw notFound();
    return redirectWithToast(request, context, back, { type: "success", key: "keep:toast.linkRevoked" });
  }
  // Without Chromium nothing is queued: the page already says why.
  if (!(await chromiumAvailable(context.config.CHROMIUM_PATH)))
    return redirectWithToast(request, context, back, { type: "error", key: "keep:toast.noChromium" });
  const result = await requestBook(context.db, user.id, storytellerId, {
    title: input.title,
    paper: input.paper,
    cover: input.cover,
    language: input.language,
    answerIds: orderedAnswerIds(form, input.include),
    ...(input.intent === Intent.print ? { print: { trim: input.trim, binding: input.binding } } : {}),
  });
  if (result.kind === "not-found") throw notFound();
  if (result.kind === "no-answers")
    return data({ result: submission.reply({ fieldErrors: { include: ["keep:book.pickOne"] } }) }, { status: 400 });
  return redirectWithToast(request, context, back, {
    type: "success",
    key: input.intent === Intent.print ? "keep:toast.printQueued" : "keep:toast.bookQueued",
  });
}

export default function KeepStoryteller() {
  const { t } = useTranslation("keep");
  const { t: tWords } = useTranslation("words");
  const { storyteller, summary, answers, keepsakes, links, canPrint, limitMb } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const result = actionData?.result;
  // A field's errors and its items' ("include[0]": an answer that is no longer there).
  const errors = (field: string) =>
    Object.entries(result?.error ?? {})
      .filter(([name]) => name === field || name.startsWith(`${field}[`))
      .flatMap(([, messages]) => messages ?? [])
      .filter((error): error is string => typeof error === "string");
  const date = (iso: string) => new Date(iso).toISOString().slice(0, 10);
  // The uploaded photo first: whoever uploaded one meant it for the cover.
  const covers = [
    ...(storyteller.hasCover ? (["uploaded"] as const) : []),
    ...(storyteller.hasPhoto ? (["storyteller"] as const) : []),
    "none" as const,
  ];
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-2xl font-bold">{t("title", { name: storyteller.firstName })}</h1>
        <p className="text-muted">{t("intro")}</p>
      </header>

      <KeepsakeList keepsakes={keepsakes} />

      <ExportCard summary={summary} storytellerId={storyteller.id} limitMb={limitMb} />

      <section
        aria-labelledby="book-heading"
        className="flex flex-col gap-3 rounded-xl border border-line bg-panel p-6"
      >
        <h2 id="book-heading" className="text-lg font-semibold">
          {t("book.heading")}
        </h2>
        <p>{t("book.lead")}</p>
        {canPrint && answers.length ? (
          <CoverForm
            storytellerId={storyteller.id}
            hasCover={storyteller.hasCover}
            error={actionData && "coverError" in actionData ? actionData.coverError : undefined}
          />
        ) : null}
        {!canPrint ? (
          <p role="alert" className="text-danger">
            {t("book.noChromium")}
          </p>
        ) : answers.length === 0 ? (
          <p className="text-muted">{t("book.noAnswers")}</p>
        ) : (
          <Form method="post" className="flex flex-col gap-4">
            <div className="flex flex-col gap-1">
              <label htmlFor="book-title" className="font-medium">
                {t("book.titleLabel")}
              </label>
              <input
                id="book-title"
                name="title"
                className="input"
                required
                maxLength={MAX_TITLE}
                defaultValue={storiesTitle(t, storyteller.name)}
                aria-invalid={errors("title")?.length ? true : undefined}
                aria-describedby={errors("title")?.length ? "book-title-error" : undefined}
              />
              <FieldErrors id="book-title-error" errors={errors("title")} />
            </div>
            <fieldset className="flex flex-wrap gap-4">
              <legend className="font-medium">{t("book.paperLabel")}</legend>
              <FieldErrors id="book-paper-error" errors={errors("paper")} />
              {(["a4", "letter"] as const).map((paper) => (
                <label key={paper} className="flex min-h-11 min-w-11 items-center gap-2">
                  <input type="radio" name="paper" value={paper} defaultChecked={paper === "a4"} />
                  {t(`book.paper.${paper}`)}
                </label>
              ))}
            </fieldset>
            <fieldset className="flex flex-wrap gap-4">
              <legend className="font-medium">{t("book.coverLabel")}</legend>
              <FieldErrors id="book-cover-error" errors={errors("cover")} />
              {covers.map((cover) => (
                <label key={cover} className="flex min-h-11 items-center gap-2">
                  <input type="radio" name="cover" value={cover} defaultChecked={cover === covers[0]} />
                  {t(`book.cover.${cover}`, { name: storyteller.name })}
                </label>
              ))}
            </fieldset>
            <fieldset className="flex flex-wrap gap-4" aria-describedby="book-language-hint">
              <legend className="font-medium">{t("book.languageLabel")}</legend>
              <p id="book-language-hint" className="w-full text-sm text-muted">
                {t("book.languageHint")}
              </p>
              <FieldErrors id="book-language-error" errors={errors("language")} />
              {(["en", "hi"] as const).map((language) => (
                <label key={language} className="flex min-h-11 items-center gap-2" lang={language}>
                  <input
                    type="radio"
                    name="language"
                    value={language}
                    defaultChecked={language === storyteller.language}
                  />
                  {t(`book.language.${language}`)}
                </label>
              ))}
            </fieldset>
            <fieldset className="flex flex-col gap-2" aria-describedby="book-answers-hint">
              <legend className="font-medium">{t("book.answersLabel")}</legend>
              <p id="book-answers-hint" className="text-sm text-muted">
                {t("book.answersHint")}
              </p>
              {answers.some((answer) => answer.wordsComing) ? (
                <p className="rounded-lg border border-line p-2 text-sm" data-testid="book-words-coming">
                  {tWords("book.waiting", { count: answers.filter((answer) => answer.wordsComing).length })}
                </p>
              ) : null}
              <FieldErrors id="book-include-error" errors={errors("include")} />
              <ol className="flex flex-col gap-2">
                {answers.map((answer, index) => (
                  <li key={answer.id} className="flex items-center gap-3">
                    <input
                      type="number"
                      name={`position-${answer.id}`}
                      defaultValue={index + 1}
                      min={1}
                      className="input w-20"
                      aria-label={t("book.order", { question: answer.question })}
                    />
                    <label className="flex min-h-11 items-center gap-2">
                      <input
                        type="checkbox"
                        name="include"
                        value={answer.id}
                        defaultChecked
                        aria-label={t("book.include", { question: answer.question })}
                      />
                      <span>
                        {answer.question} <span className="text-sm text-muted">({date(answer.answeredAt)})</span>
                        {answer.wordsComing ? (
                          <span className="text-sm text-muted"> · {tWords("book.wordsComing")}</span>
                        ) : null}
                      </span>
                    </label>
                  </li>
                ))}
              </ol>
            </fieldset>
            {/* The first button is the one Enter presses. */}
            <button type="submit" name="intent" value={Intent.book} className="btn-primary self-start">
              {t("book.submit")}
            </button>
            <fieldset className="flex flex-col gap-3 border-t border-line pt-4" aria-describedby="print-lead">
              <legend className="pt-4 font-semibold">{t("book.printHeading")}</legend>
              <p id="print-lead">{t("book.printLead")}</p>
              <fieldset className="flex flex-wrap gap-4">
                <legend className="font-medium">{t("book.trimLabel")}</legend>
                <FieldErrors id="book-trim-error" errors={errors("trim")} />
                {TRIM_NAMES.map((trim) => (
                  <label key={trim} className="flex min-h-11 items-center gap-2">
                    <input type="radio" name="trim" value={trim} defaultChecked={trim === TRIM_NAMES[0]} />
                    {t(`book.trim.${TRIMS[trim].label}`)}
                  </label>
                ))}
              </fieldset>
              <fieldset className="flex flex-wrap gap-4">
                <legend className="font-medium">{t("book.bindingLabel")}</legend>
                <FieldErrors id="book-binding-error" errors={errors("binding")} />
                {BINDINGS.map((binding) => (
                  <label key={binding} className="flex min-h-11 items-center gap-2">
                    <input type="radio" name="binding" value={binding} defaultChecked={binding === BINDINGS[0]} />
                    {t(`book.binding.${binding}`)}
                  </label>
                ))}
              </fieldset>
              <button type="submit" name="intent" value={Intent.print} className="btn-secondary self-start">
                {t("book.printSubmit")}
              </button>
            </fieldset>
          </Form>
        )}
      </section>

      <section
        aria-labelledby="links-heading"
        className="flex flex-col gap-3 rounded-xl border border-line bg-panel p-6"
      >
        <h2 id="links-heading" className="text-lg font-semibold">
          {t("links.heading")}
        </h2>
        <p>{t("links.lead")}</p>
        {links.length === 0 ? <p className="text-muted">{t("links.none")}</p> : null}
        <ul className="flex flex-col gap-2">
          {links.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center gap-3">
              <span>{link.question}</span>
              <span className="text-sm text-muted">{t("links.made", { date: date(link.createdAt) })}</span>
              <Form method="post">
                <input type="hidden" name="intent" value={Intent.revokeLink} />
                <input type="hidden" name="linkId" value={link.id} />
                <button type="submit" className="btn-secondary">
                  {t("links.revoke")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
