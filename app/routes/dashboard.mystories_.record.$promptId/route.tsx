import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { AnswerRecorder } from "~/components/answer-recorder";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { acceptRecording, markOpened } from "~/models/answer.server";
import { answerablePrompt } from "~/models/my-stories.server";
import { recorderText } from "~/models/record-page.server";
import { receiveAnswerFile } from "~/services/answer-file-form.server";
import { idParam } from "~/utils/ids";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";
import { standaloneScript } from "~/utils/standalone-scripts.server";
import { recordingFormSchema } from "./schema";

// Recording a story from My Stories: one of the user's own (under their is_self Storyteller) or a
// question sent to their address. The record page's recorder and guarantees (decision 010): served
// without React in the browser (standalone, app/root.tsx), whole without JavaScript (the file form),
// and the recorder script uploads through /uploads, which checks the prompt against the session.
export const handle = { i18n: ["stories", "record"], standalone: true };
export const meta = titleFromLoader;

const notFound = () => new Response(null, { status: 404 });

export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const prompt = await answerablePrompt(context.db, user, idParam(params.promptId));
  if (!prompt) throw notFound();
  return data(
    {
      title: await pageTitle(request, context, "recordPage.yourStory", "stories"),
      prompt,
      // ?submitted=1: the upload (or the form) just finished, the server checked and stored it.
      submitted: Boolean(prompt.answer) && new URL(request.url).searchParams.has("submitted"),
      recorderText: await recorderText(request, context),
      scripts: prompt.answer ? [] : [standaloneScript(context.config, "recorder")],
    },
    // The user's own, possibly private, words: never kept by a cache.
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * Without JavaScript: the answer as a plain multipart post (the same checks as the record page's:
 * 25 MB, audio from the bytes, 5:00), then the page says it is in. With it: the script's "opened".
 */
export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const prompt = await answerablePrompt(context.db, user, idParam(params.promptId));
  if (!prompt) throw notFound();
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    const outcome = await receiveAnswerFile(request, (input) =>
      acceptRecording(context, { promptId: prompt.id, ...input }),
    );
    if (outcome.ok) return redirect(`${new URL(request.url).pathname}?submitted=1`);
    return data(
      { error: outcome.error },
      { status: outcome.status, headers: outcome.close ? { Connection: "close" } : undefined },
    );
  }
  const submission = parseWithZod(await readForm(request), { schema: recordingFormSchema });
  if (submission.status !== "success") return data({ error: "upload.missing" }, { status: 400 });
  // The question was opened, as through its record link: its asker hears of it once. Not for the
  // user's own stories: there is no one to tell.
  if (!prompt.own) await markOpened(context, prompt.id);
  return data({ error: undefined });
}

export default function RecordMyStory() {
  const { t } = useTranslation("stories");
  const { prompt, submitted, recorderText } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section className="record-page" data-recorder-root data-upload-prompt={prompt.id}>
      <p className="text-lg">{prompt.own ? t("recordPage.own") : t("recordPage.from", { asker: prompt.askerName })}</p>
      <h1 className="rounded-xl border border-line bg-panel p-5 text-2xl leading-snug font-semibold">{prompt.text}</h1>
      {prompt.answer ? (
        <section aria-labelledby="answer-heading" className="flex flex-col gap-3">
          <div role="status">
            <h2 id="answer-heading" className="text-xl font-semibold">
              {submitted ? t("recordPage.submitted") : t("recordPage.yourStory")}
            </h2>
            <p>{prompt.own ? t("recordPage.saved") : t("recordPage.thanks", { asker: prompt.askerName })}</p>
          </div>
          <audio controls preload="none" src={`/media/answer/${prompt.answer.id}`} className="w-full" />
          {prompt.answer.isPrivate ? <p className="text-muted">{t("recordPage.private")}</p> : null}
        </section>
      ) : (
        <AnswerRecorder error={result?.error} recorderText={recorderText} />
      )}
      <p>
        <a href="/dashboard/mystories" className="link-target" data-leave-check>
          {t("recordPage.back")}
        </a>
      </p>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
