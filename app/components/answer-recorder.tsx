import type { ComponentProps, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, useSearchParams } from "react-router";

/** The Record button as a Storyteller sees it (the recorder script enables it; the sample page previews it). */
export function RecordButton(props: ComponentProps<"button"> & { "data-recorder-record"?: boolean }) {
  const { t } = useTranslation("record");
  return (
    <button type="button" className="btn-primary px-8 py-5 text-2xl" {...props}>
      {t("record")}
    </button>
  );
}

/**
 * Recording an answer, as the record page and My Stories' recording page render it: a plain
 * multipart form (a file input that a phone offers to record with, "Keep this answer private"),
 * which is the whole way to answer without JavaScript, and the mount and words the recorder script
 * (app/recorder/recorder.ts, decision 010) needs to put itself in front. The recorder's first state
 * (status line, time left, Record) is in the HTML, shown only when scripting is on, and the file form
 * folds behind "Or upload a recording" by CSS, so nothing moves when the script starts (decision 039).
 * The fold is a link to ?upload=1, which opens it even if the script never arrives. The page's root element
 * carries `data-recorder-root` (and, on My Stories, `data-upload-prompt`). `children` come after the
 * form (the record page's Skip). `error` is a translation key (record namespace).
 */
export function AnswerRecorder({
  error,
  recorderText,
  children,
}: {
  error?: string;
  recorderText: Record<string, string>;
  children?: ReactNode;
}) {
  const { t } = useTranslation("record");
  const uploadOpen = useSearchParams()[0].has("upload");
  return (
    <>
      {error ? (
        <p role="alert" className="rounded-lg border border-danger p-3 text-danger">
          <strong>{t("failed")}:</strong> {t(error)}
        </p>
      ) : null}
      <p>{t("limit")}</p>
      {/* The recorder script takes these over; without scripting they are hidden and the form below is the way. */}
      <div id="recorder" className="flex flex-col gap-4" data-js-only>
        <p role="status" className="text-2xl font-semibold" data-recorder-status>
          {t("ready")}
        </p>
        <p role="timer" className="text-3xl font-bold tabular-nums" data-recorder-timer>
          {t("timeLeft", { time: "5:00" })}
        </p>
        <RecordButton disabled data-recorder-record />
      </div>
      <Form
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-4"
        id="answer-form"
        data-upload-open={uploadOpen ? "" : undefined}
        reloadDocument
      >
        <a href="?upload=1#answer-form" className="btn-secondary self-start px-5 py-3" data-js-only data-upload-toggle>
          {t("uploadInstead")}
        </a>
        <p data-file-steps>{t("fileSteps")}</p>
        <label className="flex flex-col gap-2 font-medium" id="file-field">
          <span data-upload-heading>{t("fileLabel")}</span>
          <input
            type="file"
            name="audio"
            accept="audio/*"
            capture="user"
            required
            className="min-h-11 w-full text-base"
          />
        </label>
        <label className="flex min-h-11 items-start gap-3 py-2">
          <input type="checkbox" name="private" className="mt-1 size-6 shrink-0" />
          <span>
            {t("private")}
            <span className="block text-base text-muted">{t("privateHint")}</span>
          </span>
        </label>
        <button type="submit" className="btn-primary px-6 py-4 text-xl" data-file-submit>
          {t("submitFile")}
        </button>
      </Form>
      {children}
      <script
        type="application/json"
        id="recorder-text"
        // Data, not code: the recorder's words in the reader's language.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(recorderText).replace(/</g, "\\u003c") }}
      />
    </>
  );
}
