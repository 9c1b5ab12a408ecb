import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useLoaderData } from "react-router";
import { requireUser, type SessionUser } from "~/auth/session.server";
import { AnswerWithWords } from "~/components/answer-words";
import { FormAlert, replyErrors } from "~/components/forms";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { answerWordsForEditor, correctWords, settleHeardAgain } from "~/models/transcript-edit.server";
import { redirectWithToast } from "~/services/toast.server";
import { idParam } from "~/utils/ids";
import { formatDay, readerTimeZone } from "~/utils/intl-formats";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";
import { clockOf, MAX_SEGMENT_CHARS, MAX_TRANSCRIPT_CHARS } from "~/utils/words";
import { Intent } from "./intents";
import { wordsSchema } from "./schema";

export const handle = { i18n: ["words"] };
export const meta = titleFromLoader;

const notFound = () => new Response(null, { status: 404 });

/** Where to go back to: a page of the dashboard the form came from, else the Timeline. */
function backTo(request: Request) {
  const from = new URL(request.url).searchParams.get("from") ?? "";
  return /^\/dashboard(\/[\w\-/]*)?(\?[\w\-=&%.]*)?(#[\w-]*)?$/.test(from) ? from : "/dashboard/timeline";
}

async function loadWords(request: Request, context: LoaderArgs["context"], user: SessionUser, answerId: string) {
  const words = await answerWordsForEditor(context.db, user.id, answerId);
  if (!words) throw notFound();
  const locale = await i18nServer.getLocale(request);
  return {
    // Nothing written yet (no words heard, or none yet): the page is for writing them, not correcting.
    title: await pageTitle(request, context, words.transcript?.trim() ? "edit.title" : "edit.writeTitle", "words"),
    locale,
    back: backTo(request),
    words: {
      ...words,
      corrected: words.editedAt
        ? { by: words.editorName, on: formatDay(locale, words.editedAt, readerTimeZone(user), "dayMonth") }
        : null,
    },
  };
}

export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  return loadWords(request, context, user, idParam(params.answerId));
}

export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const answerId = idParam(params.answerId);
  // Access before reading the post: someone who may not correct these words learns nothing more.
  if (!(await answerWordsForEditor(context.db, user.id, answerId))) throw notFound();
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: wordsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const here = `${new URL(request.url).pathname}${new URL(request.url).search}`;
  const back = backTo(request);

  if (submission.value.intent !== Intent.save) {
    const choice = submission.value.intent === Intent.useHeard ? "use" : "keep";
    // Someone else may have chosen first: then nothing changed here, and the page says so.
    const settled = await settleHeardAgain(context.db, user.id, answerId, choice);
    if (!settled) return data({ result: submission.reply({ formErrors: ["words:errors.changed"] }) }, { status: 409 });
    return redirectWithToast(request, context, here, {
      type: "success",
      key: choice === "use" ? "words:edit.used" : "words:edit.kept",
    });
  }
  // Every textarea, in order, as it came (conform would drop an emptied one and shift the rest).
  const segments = form.getAll("segment").map(String);
  const saved = await correctWords(context.db, user.id, answerId, {
    segments: segments.length ? segments : undefined,
    text: submission.value.text,
    version: submission.value.version,
  });
  if (!saved.ok && saved.problem === "not-found") throw notFound();
  if (!saved.ok) {
    // What they typed comes back to them (without JavaScript too), unless it no longer fits the words.
    const typed =
      saved.problem === "changed" || saved.problem === "wrongSegmentCount"
        ? null
        : { segments, text: submission.value.text };
    return data(
      { result: submission.reply({ formErrors: [`words:errors.${saved.problem}`] }), typed },
      { status: 400 },
    );
  }
  return redirectWithToast(request, context, back, { type: "success", key: "words:edit.saved" });
}

export default function CorrectWords() {
  const { t } = useTranslation("words");
  const { words, locale, back } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const writing = !words.transcript?.trim();
  // Whatever was refused (the words, or a stale form's hidden fields), said once at the top.
  const problem = replyErrors(actionData?.result)?.[0] ?? null;
  const typed: { segments: string[]; text?: string } | null =
    actionData && "typed" in actionData ? (actionData.typed as { segments: string[]; text?: string } | null) : null;
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold">{t(writing ? "edit.writeTitle" : "edit.title")}</h1>
        <p className="text-sm text-muted">
          {t("edit.question")}: <span className="text-ink">{words.question}</span>
        </p>
        <p className="text-muted">{t(writing ? "edit.writeLead" : "edit.lead")}</p>
      </header>
      <AnswerWithWords
        audioSrc={words.hasRecording ? `/media/answer/${words.id}` : null}
        captionsSrc={`/media/answer/${words.id}/captions.vtt`}
        label={t("edit.listen")}
        words={{ ...words, heardAgain: false }}
        lang={locale}
      />
      {words.heardAgain ? (
        <div className="flex flex-col gap-3 rounded-xl border border-primary bg-panel p-4" data-testid="heard-again">
          <h2 className="font-semibold">{t("heardAgain.notice")}</h2>
          <p className="text-sm text-muted">{t("heardAgain.explain")}</p>
          <blockquote className="border-s-4 border-line ps-3 whitespace-pre-line">
            {words.heardAgain.transcript}
          </blockquote>
          <Form method="post" className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value={Intent.useHeard} className="btn-primary">
              {t("heardAgain.use")}
            </button>
            <button type="submit" name="intent" value={Intent.keepOurs} className="btn-secondary">
              {t("heardAgain.keep")}
            </button>
          </Form>
        </div>
      ) : null}
      <Form
        method="post"
        className="flex flex-col gap-4 rounded-xl border border-line bg-panel p-4"
        key={words.version}
      >
        <FormAlert message={problem} />
        <input type="hidden" name="version" value={words.version} />
        {words.segments.length ? (
          words.segments.map((segment, i) => (
            <div key={`${segment.start}-${i}`} className="flex flex-col gap-1">
              <label htmlFor={`segment-${i}`} className="text-sm font-medium">
                {t("edit.segmentLabel", { from: clockOf(segment.start), to: clockOf(segment.end) })}
              </label>
              <textarea
                id={`segment-${i}`}
                name="segment"
                defaultValue={typed?.segments[i] ?? segment.text}
                maxLength={MAX_SEGMENT_CHARS}
                rows={Math.min(6, Math.max(2, Math.ceil(segment.text.length / 60)))}
                className="input text-lg"
              />
            </div>
          ))
        ) : (
          <div className="flex flex-col gap-1">
            <label htmlFor="words-text" className="font-medium">
              {t("edit.textLabel")}
            </label>
            <textarea
              id="words-text"
              name="text"
              defaultValue={typed?.text ?? words.transcript ?? ""}
              maxLength={MAX_TRANSCRIPT_CHARS}
              rows={10}
              className="input min-h-40 text-lg"
            />
          </div>
        )}
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value={Intent.save} className="btn-primary">
            {t("edit.save")}
          </button>
          <a href={back} className="btn-secondary">
            {t("edit.cancel")}
          </a>
        </div>
      </Form>
    </section>
  );
}
