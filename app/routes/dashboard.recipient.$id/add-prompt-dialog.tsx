import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import { FieldErrors, replyErrors, SubmissionField } from "~/components/forms";
import { addBarClass, PickerSearchFields, PromptPicker } from "~/components/prompt-picker";
import { useQuestionLineMessages } from "~/components/question-errors";
import type { PickerLibrary } from "~/models/prompt-library.server";
import { useOpenUntilNavigate } from "~/utils/use-close-on-navigate";

/**
 * "Add New Prompt": a link to its own page, which with JavaScript opens the same form in a dialog
 * instead (loaded from, and posted to, that page's route: dashboard.recipient.$id_.prompts.new).
 */
export function AddPromptButton({ storytellerId }: { storytellerId: string }) {
  const { t } = useTranslation("storytellers");
  const href = `/dashboard/recipient/${storytellerId}/prompts/new`;
  const dialog = useRef<HTMLDialogElement>(null);
  const loader = useFetcher<{ library: PickerLibrary; submissionId: string }>();
  const submitter = useFetcher<{ result?: SubmissionResult<string[]> }>();
  // A successful add redirects back here, which closes the dialog.
  const [open, setOpen] = useOpenUntilNavigate();
  const refused = submitter.data?.result;
  const typed = refused?.initialValue?.customPrompts;
  const customErrors = useQuestionLineMessages(refused?.error, "customPrompts", typeof typed === "string" ? typed : "");

  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);

  return (
    <>
      <Link
        to={href}
        className="btn-primary"
        onClick={(event) => {
          event.preventDefault();
          if (loader.state === "idle" && !loader.data) loader.load(href);
          setOpen(true);
        }}
      >
        {t("view.addPrompt")}
      </Link>
      <dialog
        ref={dialog}
        onClose={() => setOpen(false)}
        aria-labelledby="add-prompt-title"
        className="m-auto w-[min(40rem,95vw)] rounded-xl border border-line bg-surface p-4 pb-0 text-ink backdrop:bg-black/40 sm:p-6 sm:pb-0"
      >
        <h2 id="add-prompt-title" className="mb-4 text-xl font-bold">
          {t("add.title")}
        </h2>
        {loader.data ? (
          <>
            <loader.Form method="get" action={href} className="mb-4">
              <PickerSearchFields
                query={loader.data.library.query}
                matches={loader.data.library.matches}
                idPrefix="dialog-"
                clearHref={href}
              />
            </loader.Form>
            <submitter.Form method="post" action={href} className="flex flex-col gap-4">
              <SubmissionField id={loader.data.submissionId} />
              <FieldErrors id="add-dialog-errors" errors={replyErrors(refused, "customPrompts")} />
              <PromptPicker
                library={loader.data.library.categories}
                starter={loader.data.library.starter}
                searching={Boolean(loader.data.library.query)}
                idPrefix="dialog-"
                customErrors={customErrors}
              />
              <div className={addBarClass}>
                <button type="submit" className="btn-primary" disabled={submitter.state !== "idle"}>
                  {t("add.submit")}
                </button>
                <button type="button" className="btn-secondary" onClick={() => setOpen(false)}>
                  {t("view.cancel")}
                </button>
              </div>
            </submitter.Form>
          </>
        ) : (
          <p role="status">{t("add.loading")}</p>
        )}
      </dialog>
    </>
  );
}
