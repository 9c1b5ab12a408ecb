import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import {
  ADD_GROUP_URL,
  type AddGroupDialogReply,
  type AddGroupPage,
  type AddGroupStep,
  AddGroupSteps,
} from "~/components/add-group-steps";

// Add Group's steps inside the dialog: loaded only once someone opens it (decision 026), so the
// dashboard's pages do not carry the three forms and their field checks on a first visit.

const dialogAction = (step: AddGroupStep) => `${ADD_GROUP_URL}?step=${step}&dialog=1`;

export default function AddGroupDialogSteps({ onCancel }: { onCancel: () => void }) {
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
        <AddGroupSteps
          key={page.step}
          page={page}
          refused={refused}
          Form={submitter.Form}
          actionFor={dialogAction}
          idPrefix="dialog-"
        />
      ) : (
        <p className="text-muted">{t("new.loading")}</p>
      )}
      <button type="button" className="btn-secondary self-start" onClick={onCancel}>
        {t("page.cancel")}
      </button>
    </div>
  );
}
