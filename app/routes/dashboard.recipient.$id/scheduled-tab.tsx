import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useFetcher, useSearchParams } from "react-router";
import { FieldErrors } from "~/components/forms";
import { useHydrated } from "~/utils/use-hydrated";
import { Intent } from "./intents";
import type { EditRefusal } from "./schema";

/** `editable`: this user may reword, move and delete it (the owner: every prompt; a collaborator: those they added). */
type QueuedPrompt = { id: string; text: string; editable: boolean };

const actionClass = "rounded px-2 py-1 text-sm hover:bg-line/60 disabled:opacity-40";

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
  const { prompts, draggable, dragProps } = useDragToReorder(saved);
  // A refused edit: its errors and what was typed, shown in the still-open edit form.
  const refusedEdit = useActionData<EditRefusal | undefined>();
  const refused = refusedEdit?.form === Intent.edit ? refusedEdit : undefined;
  if (!prompts.length) return <p className="text-muted">{t("view.emptyQueue")}</p>;
  return (
    <>
      {isCollaborator ? <p className="text-muted">{t("collaborator.queueHint")}</p> : null}
      <ol className="flex flex-col gap-2" aria-label={t("view.queue")}>
        {prompts.map((prompt, index) => (
          <li
            key={prompt.id}
            className="rounded-lg border border-line bg-panel p-3 data-[dragging=true]:opacity-50"
            data-testid="queued-prompt"
            draggable={draggable && prompt.editable}
            {...dragProps(prompt)}
          >
            {editing === prompt.id && prompt.editable ? (
              <Form method="post" className="flex flex-col gap-2">
                <input type="hidden" name="promptId" value={prompt.id} />
                <label htmlFor={`edit-${prompt.id}`} className="font-medium">
                  {t("view.editLabel")}
                </label>
                <textarea
                  id={`edit-${prompt.id}`}
                  name="text"
                  defaultValue={
                    refused?.promptId === prompt.id
                      ? String(refused.result.initialValue?.text ?? prompt.text)
                      : prompt.text
                  }
                  required
                  minLength={5}
                  maxLength={300}
                  className="input"
                  aria-invalid={refused?.promptId === prompt.id ? true : undefined}
                  aria-describedby={refused?.promptId === prompt.id ? `edit-${prompt.id}-error` : undefined}
                />
                <FieldErrors
                  id={`edit-${prompt.id}-error`}
                  errors={refused?.promptId === prompt.id ? (refused.result.error?.text ?? undefined) : undefined}
                />
                <div className="flex gap-2">
                  <button type="submit" name="intent" value={Intent.edit} className="btn-primary">
                    {t("view.save")}
                  </button>
                  <Link to="?" className="btn-secondary">
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
              <Form method="post" className="mt-2 flex flex-wrap items-center gap-2 rounded border border-danger p-2">
                <input type="hidden" name="promptId" value={prompt.id} />
                <span>{t("view.confirmDelete")}</span>
                <button type="submit" name="intent" value={Intent.delete} className="btn-danger">
                  {t("view.delete")}
                </button>
                <Link to="?" className="btn-secondary">
                  {t("view.cancel")}
                </Link>
              </Form>
            ) : null}
            {prompt.editable || canSendNow ? (
              // One form per prompt: each button posts its own intent with the prompt's id.
              <Form method="post" className="mt-2 flex flex-wrap gap-1">
                <input type="hidden" name="promptId" value={prompt.id} />
                {prompt.editable ? (
                  <>
                    <button
                      type="submit"
                      name="intent"
                      value={Intent.moveUp}
                      disabled={index === 0}
                      className={actionClass}
                    >
                      {t("view.moveUp")}
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value={Intent.moveDown}
                      disabled={index === prompts.length - 1}
                      className={actionClass}
                    >
                      {t("view.moveDown")}
                    </button>
                    <Link to={`?edit=${prompt.id}`} className={actionClass}>
                      {t("view.edit")}
                    </Link>
                    <Link to={`?delete=${prompt.id}`} className={actionClass}>
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
 * Drag and drop, when JavaScript runs: posts the place intent the server understands, and
 * shows the new order at once (the buttons remain for keyboards and for pages without JavaScript).
 */
function useDragToReorder(saved: QueuedPrompt[]) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const [dragging, setDragging] = useState<string | null>(null);

  let prompts = saved;
  const pending = fetcher.formData;
  if (pending?.get("intent") === Intent.place) {
    const moved = saved.find((p) => p.id === pending.get("promptId"));
    const rest = saved.filter((p) => p !== moved);
    const before = rest.findIndex((p) => p.id === pending.get("beforeId"));
    if (moved)
      prompts = [
        ...rest.slice(0, before < 0 ? rest.length : before),
        moved,
        ...rest.slice(before < 0 ? rest.length : before),
      ];
  }

  // Any prompt is a place to drop on; only one the user may move can be picked up.
  const dragProps = ({ id, editable }: QueuedPrompt) => ({
    "data-dragging": dragging === id,
    onDragStart: (event: React.DragEvent) => {
      if (!editable) return event.preventDefault();
      event.dataTransfer.effectAllowed = "move";
      setDragging(id);
    },
    onDragEnd: () => setDragging(null),
    onDragOver: (event: React.DragEvent) => event.preventDefault(),
    onDrop: (event: React.DragEvent) => {
      event.preventDefault();
      if (!dragging || dragging === id) return;
      const from = prompts.findIndex((p) => p.id === dragging);
      const to = prompts.findIndex((p) => p.id === id);
      // Dropped on a later item: it goes after that item; on an earlier one: before it.
      const beforeId = from < to ? (prompts[to + 1]?.id ?? "") : id;
      fetcher.submit({ intent: Intent.place, promptId: dragging, beforeId }, { method: "post" });
      setDragging(null);
    },
  });
  return { prompts, draggable: hydrated, dragProps };
}
