import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useNavigate, useSearchParams } from "react-router";
import { FieldErrors } from "~/components/forms";
import { useQuestionMessage } from "~/components/question-errors";
import { useHydrated } from "~/utils/use-hydrated";
import { Intent, queuedAnchor } from "./intents";
import type { EditRefusal } from "./schema";
import { type QueuedPrompt, useQueueOrder } from "./use-queue-order";

const actionClass = "btn-quiet";

/**
 * The Scheduled tab: the queue in sending order. Every action is a plain form post; editing and
 * deleting open in place through the URL (?edit= / ?delete=), so they work without JavaScript.
 * A prompt shows only the controls the server would honour: move, edit and delete on the prompts
 * this user may change, Send now for the owner (`canSendNow`).
 */
export function PromptQueue({
  prompts: saved,
  canSendNow,
  isCollaborator = false,
}: {
  prompts: QueuedPrompt[];
  canSendNow: boolean;
  isCollaborator?: boolean;
}) {
  const { t } = useTranslation("storytellers");
  const [params] = useSearchParams();
  const editing = params.get("edit");
  const deleting = params.get("delete");
  const { prompts, draggable, dragProps, moveButtonProps } = useQueueOrder(saved);
  const inPlace = useInPlaceLink();
  // A refused edit: its errors and what was typed, shown in the still-open edit form.
  const refusedEdit = useActionData<EditRefusal | undefined>();
  const refused = refusedEdit?.form === Intent.edit ? refusedEdit : undefined;
  const typed = refused ? String(refused.result.initialValue?.text ?? "") : "";
  const say = useQuestionMessage();
  if (!prompts.length) return <p className="text-muted">{t("view.emptyQueue")}</p>;
  return (
    <>
      {isCollaborator ? <p className="text-muted">{t("collaborator.queueHint")}</p> : null}
      <ol className="flex flex-col gap-2" aria-label={t("view.queue")}>
        {prompts.map((prompt, index) => (
          <li
            key={prompt.id}
            id={queuedAnchor(prompt.id)}
            tabIndex={-1}
            className="scroll-mt-24 rounded-lg border border-line bg-panel p-3 data-[dragging=true]:opacity-50 data-[drop-target=true]:border-primary data-[drop-target=true]:ring-2 data-[drop-target=true]:ring-primary"
            data-testid="queued-prompt"
            draggable={draggable && prompt.editable}
            {...dragProps(prompt)}
          >
            {editing === prompt.id && prompt.editable ? (
              <Form method="post" preventScrollReset className="flex flex-col gap-2">
                <input type="hidden" name="promptId" value={prompt.id} />
                <label htmlFor={`edit-${prompt.id}`} className="font-medium">
                  {t("view.editLabel")}
                </label>
                <textarea
                  id={`edit-${prompt.id}`}
                  name="text"
                  defaultValue={refused?.promptId === prompt.id ? typed : prompt.text}
                  required
                  minLength={5}
                  className="input"
                  aria-invalid={refused?.promptId === prompt.id ? true : undefined}
                  aria-describedby={refused?.promptId === prompt.id ? `edit-${prompt.id}-error` : undefined}
                />
                <FieldErrors
                  id={`edit-${prompt.id}-error`}
                  errors={refused?.promptId === prompt.id ? (refused.result.error?.text ?? undefined) : undefined}
                  say={(error) => say(error, typed)}
                />
                <div className="flex flex-wrap gap-2">
                  <button type="submit" name="intent" value={Intent.edit} className="btn-primary">
                    {t("view.save")}
                  </button>
                  <Link {...inPlace(prompt.id, "?")} className="btn-secondary">
                    {t("view.cancel")}
                  </Link>
                </div>
              </Form>
            ) : (
              <p>
                <span className="me-2 text-muted">{index + 1}.</span>
                {prompt.text}
                {isCollaborator && prompt.editable ? (
                  <span className="ms-2 rounded bg-line/60 px-1.5 py-0.5 text-xs">{t("collaborator.yours")}</span>
                ) : null}
              </p>
            )}
            {deleting === prompt.id && prompt.editable ? (
              <Form
                method="post"
                preventScrollReset
                className="mt-2 flex flex-wrap items-center gap-2 rounded border border-danger p-2"
              >
                <input type="hidden" name="promptId" value={prompt.id} />
                <span>{t("view.confirmDelete")}</span>
                <button type="submit" name="intent" value={Intent.delete} className="btn-danger">
                  {t("view.delete")}
                </button>
                <Link {...inPlace(prompt.id, "?")} className="btn-secondary">
                  {t("view.cancel")}
                </Link>
              </Form>
            ) : null}
            {prompt.editable || canSendNow ? (
              // One form per prompt: each button posts its own intent with the prompt's id.
              <Form method="post" preventScrollReset className="mt-2 flex flex-wrap gap-1">
                <input type="hidden" name="promptId" value={prompt.id} />
                {prompt.editable ? (
                  <>
                    {(
                      [
                        [Intent.moveTop, "view.moveTop", index === 0],
                        [Intent.moveUp, "view.moveUp", index === 0],
                        [Intent.moveDown, "view.moveDown", index === prompts.length - 1],
                      ] as const
                    ).map(([intent, label, disabled]) => (
                      <button
                        key={intent}
                        type="submit"
                        name="intent"
                        value={intent}
                        disabled={disabled}
                        className={actionClass}
                        {...moveButtonProps(prompt.id, intent)}
                      >
                        {t(label)}
                      </button>
                    ))}
                    <Link {...inPlace(prompt.id, `?edit=${prompt.id}`)} className={actionClass}>
                      {t("view.edit")}
                    </Link>
                    <Link {...inPlace(prompt.id, `?delete=${prompt.id}`)} className={actionClass}>
                      {t("view.delete")}
                    </Link>
                  </>
                ) : null}
                {canSendNow ? (
                  <button type="submit" name="intent" value={Intent.sendNow} className={actionClass}>
                    {t("view.sendNow")}
                  </button>
                ) : null}
              </Form>
            ) : null}
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * Edit, Delete and Cancel open and close in place: without JavaScript the link's anchor brings the
 * page back to the row; with it the page does not move at all (no anchor jump, no scroll reset).
 */
function useInPlaceLink() {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  return (promptId: string, search: string) => ({
    to: `${search}#${queuedAnchor(promptId)}`,
    preventScrollReset: true,
    onClick: (event: React.MouseEvent<HTMLAnchorElement>) => {
      if (!hydrated || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      void navigate(search, { preventScrollReset: true });
    },
  });
}
