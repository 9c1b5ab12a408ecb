import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";

/**
 * Recording an answer, as the record page and My Stories' recording page render it: a plain
 * multipart form (a file input that a phone offers to record with, "Keep this answer private"),
 * which is the whole way to answer without JavaScript, and the mount and words the recorder script
 * (app/recorder/recorder.ts, decision 010) needs to put itself in front. The page's root element
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
  return (
    <>
      {error ? (
        <p role="alert" className="rounded-lg border border-danger p-3 text-danger">
          <strong>{t("failed")}:</strong> {t(error)}
        </p>
      ) : null}
      <p>{t("limit")}</p>
      {/* The recorder script fills this in; without it, the form below is the way to answer. */}
      <div id="recorder" hidden />
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" id="answer-form" reloadDocument>
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
