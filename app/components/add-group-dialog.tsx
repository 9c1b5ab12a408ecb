import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import { FieldErrors } from "~/components/forms";
import { GroupDetailsFields } from "~/components/group-fields";
import { groupDetailsSchema } from "~/utils/group-schema";
import { useOpenUntilNavigate } from "~/utils/use-close-on-navigate";

const HREF = "/dashboard/groups/new";

/**
 * "Add Group": a link to Add Group's page, which with JavaScript opens its first step (the same
 * fields, posted to the same route) in a dialog instead. Once the step is kept, the page's next
 * step follows (its redirect moves the page on, which closes the dialog).
 */
export function AddGroupLink({ className, label }: { className: string; label?: string }) {
  const { t } = useTranslation("common");
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useOpenUntilNavigate();
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <>
      <Link
        to={HREF}
        className={className}
        onClick={(event) => {
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
        className="m-auto w-[min(36rem,95vw)] rounded-xl border border-line bg-surface p-6 text-ink backdrop:bg-black/40"
      >
        {open ? <AddGroupDialogForm onCancel={() => setOpen(false)} /> : null}
      </dialog>
    </>
  );
}

function AddGroupDialogForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation("groups");
  const submitter = useFetcher<{ result?: SubmissionResult<string[]> }>();
  const [form, fields] = useForm({
    id: "add-group-dialog",
    lastResult: submitter.data?.result,
    constraint: getZodConstraint(groupDetailsSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: groupDetailsSchema }),
  });
  return (
    <>
      <h2 id="add-group-title" className="mb-4 text-xl font-bold">
        {t("new.title")}
      </h2>
      <submitter.Form method="post" action={`${HREF}?step=1`} {...getFormProps(form)} className="flex flex-col gap-4">
        <FieldErrors id={form.errorId} errors={form.errors} />
        <GroupDetailsFields fields={fields} />
        <div className="flex gap-3">
          <button
            type="submit"
            name="intent"
            value="next"
            className="btn-primary"
            disabled={submitter.state !== "idle"}
          >
            {t("new.next")}
          </button>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            {t("page.cancel")}
          </button>
        </div>
      </submitter.Form>
    </>
  );
}
