import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Field, FieldErrors } from "~/components/forms";
import { type LibraryCategory, PromptPicker } from "~/components/prompt-picker";
import { useQuestionMessage } from "~/components/question-errors";
import { formatDay } from "~/utils/intl-formats";
import { useRootData } from "~/utils/root-data";
import { Intent, recordingPath } from "./intents";
import type { Refusal } from "./server";

/** "Record a story": a library question (one of the curated categories) or a title of one's own. */
export function RecordAStory({ library, refusal }: { library: LibraryCategory[]; refusal?: Refusal }) {
  const { t } = useTranslation("stories");
  const libraryErrors = refusal?.form === Intent.recordLibrary ? refusal.result.error?.libraryPromptId : undefined;
  const titleRefusal = refusal?.form === Intent.recordTitle ? refusal.result : undefined;
  const typedTitle = titleRefusal?.initialValue?.title;
  const say = useQuestionMessage();
  return (
    <section aria-labelledby="record-a-story" className="flex flex-col gap-4 rounded-xl border border-line p-4">
      <h2 id="record-a-story" className="text-xl font-semibold">
        {t("record.heading")}
      </h2>
      <p>{t("record.lead")}</p>
      <Form method="post" reloadDocument className="flex flex-col gap-3">
        <fieldset
          className="flex flex-col gap-3"
          aria-describedby={libraryErrors?.length ? "libraryPromptId-error" : undefined}
        >
          <legend className="mb-2 font-medium">{t("record.libraryHeading")}</legend>
          <FieldErrors id="libraryPromptId-error" errors={libraryErrors ?? undefined} />
          <PromptPicker library={library} choose="one" />
        </fieldset>
        <button type="submit" name="intent" value={Intent.recordLibrary} className="btn-primary self-start">
          {t("record.libraryButton")}
        </button>
      </Form>
      <Form method="post" reloadDocument className="flex flex-col gap-3">
        <h3 className="font-medium">{t("record.titleHeading")}</h3>
        <Field
          label={t("record.titleLabel")}
          hint={t("record.titleHint")}
          inputProps={{
            id: "story-title",
            name: "title",
            required: true,
            defaultValue: typeof typedTitle === "string" ? typedTitle : undefined,
          }}
          errors={titleRefusal?.error?.title ?? undefined}
          say={(error) => say(error, typeof typedTitle === "string" ? typedTitle : "")}
        />
        <button type="submit" name="intent" value={Intent.recordTitle} className="btn-primary self-start">
          {t("record.titleButton")}
        </button>
      </Form>
    </section>
  );
}

type Question = { id: string; question: string; askerName: string; sentAt: string; rerecord: boolean };

/** Questions sent to the user's address that wait for an answer, and their own stories not recorded yet. */
export function OpenQuestions({
  questions,
  drafts,
  locale,
}: {
  questions: Question[];
  drafts: { id: string; question: string }[];
  locale: string;
}) {
  const { t } = useTranslation("stories");
  const timeZone = useRootData()?.timeZone ?? "UTC";
  return (
    <>
      {questions.length ? (
        <section aria-labelledby="questions-for-you" className="flex flex-col gap-3">
          <h2 id="questions-for-you" className="text-xl font-semibold">
            {t("questions.heading")}
          </h2>
          <ul className="flex flex-col gap-3">
            {questions.map((q) => (
              <li key={q.id} className="flex flex-col gap-2 rounded-lg border border-line bg-panel p-4">
                <p className="text-lg font-semibold">{q.question}</p>
                <p className="text-sm text-muted">
                  {t("questions.askedBy", { name: q.askerName, date: formatDay(locale, q.sentAt, timeZone) })}
                </p>
                {q.rerecord ? <p className="text-sm">{t("questions.rerecord", { name: q.askerName })}</p> : null}
                <a href={recordingPath(q.id)} className="btn-primary self-start">
                  {t("questions.answer")}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {drafts.length ? (
        <section aria-labelledby="not-recorded" className="flex flex-col gap-3">
          <h2 id="not-recorded" className="text-xl font-semibold">
            {t("drafts.heading")}
          </h2>
          <ul className="flex flex-col gap-3">
            {drafts.map((draft) => (
              <li key={draft.id} className="flex flex-col gap-2 rounded-lg border border-line bg-panel p-4">
                <p className="text-lg font-semibold">{draft.question}</p>
                <div className="flex flex-wrap items-start gap-2">
                  <a href={recordingPath(draft.id)} className="btn-primary">
                    {t("drafts.record")}
                  </a>
                  <ConfirmedDelete promptId={draft.id} explain={t("delete.explainDraft")} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** Delete, opened in place and done only with the box ticked (the browser insists, and so does the server). */
export function ConfirmedDelete({ promptId, explain }: { promptId: string; explain: string }) {
  const { t } = useTranslation("stories");
  const checkboxId = `delete-confirm-${promptId}`;
  return (
    <details className="rounded-lg border border-line open:basis-full open:p-2">
      <summary className="cursor-pointer px-5 py-2.5 font-semibold">{t("delete.open")}</summary>
      <Form method="post" className="mt-2 flex flex-col gap-2">
        <input type="hidden" name="promptId" value={promptId} />
        <p>{explain}</p>
        <div className="flex items-start gap-2">
          <input type="checkbox" id={checkboxId} name="confirm" required className="mt-1 size-5" />
          <label htmlFor={checkboxId}>{t("delete.confirm")}</label>
        </div>
        <button type="submit" name="intent" value={Intent.delete} className="btn-danger self-start">
          {t("delete.submit")}
        </button>
      </Form>
    </details>
  );
}
