import { lazy, Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLocation } from "react-router";
import type { AddGroupDialogReply, AddGroupPage, AddGroupStep } from "~/components/add-group-steps";
import { useOpenUntilNavigate } from "~/utils/use-close-on-navigate";

// The link is on every dashboard page; the steps' forms (and the schemas that check them in the
// browser) are fetched only when the dialog opens, so a first visit does not download them.
const AddGroupSteps = lazy(() => import("~/components/add-group-steps").then((m) => ({ default: m.AddGroupSteps })));

/** Add Group's page (the same as add-group-steps' ADD_GROUP_URL, kept here so this file stays light). */
const ADD_GROUP_URL = "/dashboard/groups/new";

/**
 * "Add Group": a link to Add Group's page, which with JavaScript opens its three steps in a dialog
 * instead: the page's forms, posted by a fetcher to the same route with &dialog=1, which answers with
 * the next step (or the refusal) rather than a redirect. Creating the group redirects to it, and the
 * navigation closes the dialog.
 */
export function AddGroupLink({ className, label }: { className: string; label?: string }) {
  const { t } = useTranslation("common");
  const { pathname } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useOpenUntilNavigate();
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <>
      <Link
        to={ADD_GROUP_URL}
        className={className}
        onClick={(event) => {
          // On Add Group's own page, the link just goes there.
          if (pathname === ADD_GROUP_URL) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label ?? t("nav.addGroup")}
      </Link>
      <dialog
        ref={dialog}
        onClose={() => setOpen(false)}
        aria-labelledby="add-group-title"
        className="m-auto w-[min(48rem,95vw)] rounded-xl border border-line bg-surface p-6 text-ink backdrop:bg-black/40"
      >
        {open ? <AddGroupDialogSteps onCancel={() => setOpen(false)} /> : null}
      </dialog>
    </>
  );
}

const dialogAction = (step: AddGroupStep) => `${ADD_GROUP_URL}?step=${step}&dialog=1`;

function AddGroupDialogSteps({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation("groups");
  const start = useFetcher<AddGroupPage>();
  const submitter = useFetcher<AddGroupDialogReply>();
  const { load } = start;
  useEffect(() => {
    void load(`${ADD_GROUP_URL}?step=1`);
  }, [load]);
  const page = submitter.data?.page ?? start.data;
  const reply = submitter.data;
  const refused = reply?.form && reply.result ? { form: reply.form, result: reply.result } : undefined;
  return (
    <div className="flex flex-col gap-6">
      <h2 id="add-group-title" className="text-xl font-bold">
        {t("new.title")}
      </h2>
      {page ? (
        <Suspense fallback={<p className="text-muted">{t("new.loading")}</p>}>
          <AddGroupSteps
            key={page.step}
            page={page}
            refused={refused}
            Form={submitter.Form}
            actionFor={dialogAction}
            idPrefix="dialog-"
          />
        </Suspense>
      ) : (
        <p className="text-muted">{t("new.loading")}</p>
      )}
      <button type="button" className="btn-secondary self-start" onClick={onCancel}>
        {t("page.cancel")}
      </button>
    </div>
  );
}
