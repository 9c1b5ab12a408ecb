import { useEffect, useRef, useState } from "react";
import { useFetchers, useSubmit } from "react-router";
import { useHydrated } from "~/utils/use-hydrated";
import { Intent, queuedAnchor } from "./intents";

export type QueuedPrompt = { id: string; text: string; editable: boolean };
type Move = { intent: string; promptId: string; beforeId?: string };

const moveIntents: string[] = [Intent.moveUp, Intent.moveDown, Intent.moveTop, Intent.place];

/** The queue as it will be once `move` is saved: what the server does, done on the list shown. */
function applyMove(prompts: QueuedPrompt[], move: Move): QueuedPrompt[] {
  const from = prompts.findIndex((p) => p.id === move.promptId);
  if (from < 0) return prompts;
  const rest = prompts.filter((_, index) => index !== from);
  let to: number;
  if (move.intent === Intent.moveUp) to = Math.max(0, from - 1);
  else if (move.intent === Intent.moveDown) to = Math.min(rest.length, from + 1);
  else if (move.intent === Intent.moveTop) to = 0;
  else {
    const before = rest.findIndex((p) => p.id === move.beforeId);
    to = before < 0 ? rest.length : before;
  }
  return [...rest.slice(0, to), prompts[from], ...rest.slice(to)];
}

let moveCount = 0;

/**
 * Reordering with JavaScript: Move up / down / to top and drag and drop post through fetchers (no
 * reload, the page stays where it is), the new order shows at once (every move still in flight,
 * in order), and the button pressed keeps the focus though its row moved. Without JavaScript the
 * same buttons post the form, and the server's redirect comes back to the row's anchor.
 */
export function useQueueOrder(saved: QueuedPrompt[]) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  const [dragging, setDragging] = useState<string | null>(null);
  // The row a dragged question would be dropped on, marked so a person sees where it will land.
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const focusAfterMove = useRef<Move | null>(null);

  const fetchers = useFetchers();
  let prompts = saved;
  for (const fetcher of fetchers) {
    const intent = fetcher.formData?.get("intent");
    if (typeof intent !== "string" || !moveIntents.includes(intent)) continue;
    prompts = applyMove(prompts, {
      intent,
      promptId: String(fetcher.formData?.get("promptId")),
      beforeId: String(fetcher.formData?.get("beforeId") ?? ""),
    });
  }

  const move = (fields: Move) => {
    submit({ ...fields, js: "1" }, { method: "post", navigate: false, fetcherKey: `queue-move-${++moveCount}` });
  };

  const order = prompts.map((p) => p.id).join(",");
  // A moved row is taken out of the document and put back, which blurs the button in it.
  useEffect(() => {
    const last = focusAfterMove.current;
    if (!last) return;
    const row = document.getElementById(queuedAnchor(last.promptId));
    const button = row?.querySelector<HTMLButtonElement>(`button[value="${last.intent}"]:not(:disabled)`);
    const target = button ?? row?.querySelector<HTMLButtonElement>("button:not(:disabled)") ?? row;
    if (target && document.activeElement !== target) target.focus();
  }, [order]);

  /** With JavaScript, a move button posts through a fetcher instead of the form. */
  const moveButtonProps = (promptId: string, intent: string) => ({
    onClick: (event: React.MouseEvent<HTMLButtonElement>) => {
      if (!hydrated) return;
      event.preventDefault();
      focusAfterMove.current = { intent, promptId };
      move({ intent, promptId });
    },
  });

  // Any prompt is a place to drop on; only one the user may move can be picked up.
  const dragProps = ({ id, editable }: QueuedPrompt) => ({
    "data-dragging": dragging === id,
    "data-drop-target": Boolean(dragging) && dragging !== id && dropTarget === id,
    onDragStart: (event: React.DragEvent) => {
      if (!editable) return event.preventDefault();
      event.dataTransfer.effectAllowed = "move";
      focusAfterMove.current = null;
      setDragging(id);
    },
    onDragEnd: () => {
      setDragging(null);
      setDropTarget(null);
    },
    onDragOver: (event: React.DragEvent) => {
      event.preventDefault();
      if (dropTarget !== id) setDropTarget(id);
    },
    onDrop: (event: React.DragEvent) => {
      event.preventDefault();
      setDropTarget(null);
      if (!dragging || dragging === id) return;
      const from = prompts.findIndex((p) => p.id === dragging);
      const to = prompts.findIndex((p) => p.id === id);
      // Dropped on a later item: it goes after that item; on an earlier one: before it.
      const beforeId = from < to ? (prompts[to + 1]?.id ?? "") : id;
      move({ intent: Intent.place, promptId: dragging, beforeId });
      setDragging(null);
    },
  });
  return { prompts, draggable: hydrated, dragProps, moveButtonProps };
}
