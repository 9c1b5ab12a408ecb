import { lazy, Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useOpenUntilNavigate } from "~/utils/use-close-on-navigate";

/** Add Group's page (add-group-steps.tsx has it too; importing it from there would load that module). */
const ADD_GROUP_URL = "/dashboard/groups/new";
// The dialog's steps (three forms) load when it first opens, not with every dashboard page: decision 026.
const AddGroupDialogSteps = lazy(() => import("~/components/add-group-dialog-steps"));

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
        {open ? (
          <Suspense fallback={<p className="text-muted">{t("groups:new.loading")}</p>}>
            <AddGroupDialogSteps onCancel={() => setOpen(false)} />
          </Suspense>
        ) : null}
      </dialog>
    </>
  );
}
