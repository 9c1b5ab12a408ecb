import { Form, Link, useFetcher, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

type QueuedPrompt = { id: string; text: string };

function IntentButton({ intent, promptId, label, disabled }: { intent: string; promptId: string; label: string; disabled?: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="promptId" value={promptId} />
      <button type="submit" name="intent" value={intent} disabled={disabled} className="rounded px-2 py-1 text-sm hover:bg-line/60 disabled:opacity-40">
        {label}
      </button>
    </Form>
  );
}

/**
 * The Scheduled tab: the queue in sending order. Every action is a plain form post; editing and
 * deleting open in place through the URL (?edit= / ?delete=), so they work without JavaScript.
 */
export function PromptQueue({ prompts: saved }: { prompts: QueuedPrompt[] }) {
  const { t } = useTranslation("storytellers");
  const [params] = useSearchParams();
  const editing = params.get("edit");
  const deleting = params.get("delete");
  const { prompts, draggable, dragProps } = useDragToReorder(saved);
  if (!prompts.length) return <p className="text-muted">{t("view.emptyQueue")}</p>;
  return (
    <ol className="flex flex-col gap-2" aria-label={t("view.queue")}>
      {prompts.map((prompt, index) => (
        <li key={prompt.id} className="rounded-lg border border-line bg-panel p-3 data-[dragging=true]:opacity-50" data-testid="queued-prompt" draggable={draggable} {...dragProps(prompt.id)}>
          {editing === prompt.id ? (
            <Form method="post" className="flex flex-col gap-2">
              <input type="hidden" name="promptId" value={prompt.id} />
              <label htmlFor={`edit-${prompt.id}`} className="font-medium">
                {t("view.editLabel")}
              </label>
              <textarea id={`edit-${prompt.id}`} name="text" defaultValue={prompt.text} required minLength={5} maxLength={300} className="input" />
              <div className="flex gap-2">
                <button type="submit" name="intent" value="edit" className="btn-primary">
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
            </p>
          )}
          {deleting === prompt.id ? (
            <Form method="post" className="mt-2 flex flex-wrap items-center gap-2 rounded border border-danger p-2">
              <input type="hidden" name="promptId" value={prompt.id} />
              <span>{t("view.confirmDelete")}</span>
              <button type="submit" name="intent" value="delete" className="btn-danger">
                {t("view.delete")}
              </button>
              <Link to="?" className="btn-secondary">
                {t("view.cancel")}
              </Link>
            </Form>
          ) : null}
          <div className="mt-2 flex flex-wrap gap-1">
            <IntentButton intent="move-up" promptId={prompt.id} label={t("view.moveUp")} disabled={index === 0} />
            <IntentButton intent="move-down" promptId={prompt.id} label={t("view.moveDown")} disabled={index === prompts.length - 1} />
            <Link to={`?edit=${prompt.id}`} className="rounded px-2 py-1 text-sm hover:bg-line/60">
              {t("view.edit")}
            </Link>
            <Link to={`?delete=${prompt.id}`} className="rounded px-2 py-1 text-sm hover:bg-line/60">
              {t("view.delete")}
            </Link>
            <IntentButton intent="send-now" promptId={prompt.id} label={t("view.sendNow")} />
          </div>
        </li>
      ))}
    </ol>
  );
}

type SentPrompt = {
  id: string;
  text: string;
  sent_at: Date | string | null;
  skipped_at: Date | string | null;
  rerecord_requested_at?: Date | string | null;
  answer_id: string | null;
  is_private: boolean | null;
  transcript?: string | null;
  transcript_status?: "pending" | "done" | "none" | "failed" | null;
  share_url?: string | null;
  delivery_status: string | null;
  delivery_error: string | null;
};

/**
 * The Sent tab: each sent prompt with its date and whether it was answered, skipped or not
 * answered. An answer (unless private) gets a player, its transcript and its actions; all of them
 * are plain links and form posts, and JavaScript only adds the share sheet or copying the link.
 */
export function SentPrompts({ prompts, locale, canManage = false }: { prompts: SentPrompt[]; locale: string; canManage?: boolean }) {
  const { t } = useTranslation("storytellers");
  if (!prompts.length) return <p className="text-muted">{t("view.nothingSent")}</p>;
  const format = new Intl.DateTimeFormat(locale === "hi" ? "hi-IN" : "en-US", { dateStyle: "medium", timeZone: "UTC" });
  return (
    <ul className="flex flex-col gap-2">
      {prompts.map((prompt) => {
        const status = prompt.answer_id ? (prompt.is_private ? "answeredPrivate" : "answered") : prompt.skipped_at ? "skipped" : "notAnswered";
        return (
          <li key={prompt.id} id={`prompt-${prompt.id}`} className="rounded-lg border border-line bg-panel p-3" data-testid="sent-prompt">
            <p>{prompt.text}</p>
            <p className="mt-1 text-sm text-muted">
              {prompt.sent_at ? format.format(new Date(prompt.sent_at)) : null} · {t(`view.status.${status}`)}
            </p>
            {prompt.delivery_status === "failed" ? (
              <p className="mt-1 text-sm text-danger">{t("delivery.statusFailed", { reason: prompt.delivery_error ?? "" })}</p>
            ) : prompt.delivery_status === "sending" ? (
              <p className="mt-1 text-sm text-muted">{t("delivery.statusSending")}</p>
            ) : null}
            {prompt.rerecord_requested_at ? <p className="mt-1 text-sm text-muted">{t("answers.rerecordPending")}</p> : null}
            {prompt.answer_id && !prompt.is_private ? <AnswerPanel answerId={prompt.answer_id} prompt={prompt} canManage={canManage} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

function AnswerPanel({ answerId, prompt, canManage }: { answerId: string; prompt: SentPrompt; canManage: boolean }) {
  const { t } = useTranslation("storytellers");
  return (
    <div className="mt-3 flex flex-col gap-3" data-testid="answer">
      <audio controls preload="none" src={`/media/answer/${answerId}`} aria-label={t("answers.player", { prompt: prompt.text })} className="w-full" />
      <Transcript status={prompt.transcript_status ?? "pending"} text={prompt.transcript ?? null} />
      <div className="flex flex-wrap items-start gap-2">
        <ShareControl answerId={answerId} shareUrl={prompt.share_url ?? null} />
        <a href={`/media/answer/${answerId}?download=1`} download className="btn-secondary">
          {t("answers.download")}
        </a>
        {canManage ? (
          <>
            <ConfirmedAnswerAction answerId={answerId} intent="answer-rerecord" name="rerecord" />
            <ConfirmedAnswerAction answerId={answerId} intent="answer-delete" name="delete" danger />
          </>
        ) : null}
      </div>
    </div>
  );
}

function Transcript({ status, text }: { status: NonNullable<SentPrompt["transcript_status"]>; text: string | null }) {
  const { t } = useTranslation("storytellers");
  if (status === "pending") return <p className="text-sm text-muted">{t("answers.transcribing")}</p>;
  if (status === "done" && text?.trim()) {
    return (
      <figure className="flex flex-col gap-1" data-testid="transcript">
        <figcaption className="text-sm font-medium">{t("answers.transcript")}</figcaption>
        <blockquote className="whitespace-pre-line">{text}</blockquote>
      </figure>
    );
  }
  return (
    <p className="text-sm text-muted" data-testid="transcript">
      {t("answers.noTranscript")}
    </p>
  );
}

/**
 * Share: the post makes (or reuses) the answer's link and the page shows it to copy. With
 * JavaScript the same button opens the phone's share sheet, or copies the link where there is none.
 */
function ShareControl({ answerId, shareUrl }: { answerId: string; shareUrl: string | null }) {
  const { t } = useTranslation("storytellers");
  const fetcher = useFetcher<{ shareUrl?: string }>();
  const [status, setStatus] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const waitingForLink = useRef(false);
  // The page's data is the truth (after Stop sharing there is no link, whatever the fetcher got before).
  const url = shareUrl;
  const inputId = `share-link-${answerId}`;

  const deliver = useCallback(
    async (link: string) => {
      setStatus("");
      if (typeof navigator.share === "function") {
        try {
          await navigator.share({ url: link });
          return;
        } catch (error) {
          // Closing the share sheet is a choice, not a failure.
          if ((error as DOMException).name === "AbortError") return;
        }
      }
      try {
        await navigator.clipboard.writeText(link);
        setStatus(t("answers.copied"));
      } catch {
        input.current?.select();
        setStatus(t("answers.copyYourself"));
      }
    },
    [t],
  );

  useEffect(() => {
    if (waitingForLink.current && fetcher.state === "idle" && fetcher.data?.shareUrl) {
      waitingForLink.current = false;
      void deliver(fetcher.data.shareUrl);
    }
  }, [fetcher.state, fetcher.data, deliver]);

  // In the row of actions: the button in place, the link and the status on their own line below it.
  return (
    <>
      <Form
        method="post"
        onSubmit={(event) => {
          // Only runs with JavaScript; without it the form posts and the page shows the link.
          event.preventDefault();
          if (url) return void deliver(url);
          waitingForLink.current = true;
          fetcher.submit({ intent: "answer-share", answerId, js: "1" }, { method: "post" });
        }}
      >
        <input type="hidden" name="answerId" value={answerId} />
        <button type="submit" name="intent" value="answer-share" className="btn-secondary" disabled={fetcher.state !== "idle"}>
          {t("answers.share")}
        </button>
      </Form>
      {url ? (
        <div className="order-last flex basis-full flex-col items-start gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            {t("answers.shareLink")}
          </label>
          <input ref={input} id={inputId} type="url" readOnly value={url} className="input w-full max-w-xl text-sm" onFocus={(event) => event.currentTarget.select()} />
          <Form method="post">
            <input type="hidden" name="answerId" value={answerId} />
            <button type="submit" name="intent" value="answer-unshare" className="rounded px-2 py-1 text-sm underline hover:bg-line/60">
              {t("answers.stopSharing")}
            </button>
          </Form>
        </div>
      ) : null}
      <p role="status" className="order-last basis-full text-sm">
        {status}
      </p>
    </>
  );
}

/** Delete and Re-record: opened in place, and done only with the box ticked (the browser insists, and so does the server). */
function ConfirmedAnswerAction({ answerId, intent, name, danger = false }: { answerId: string; intent: string; name: "delete" | "rerecord"; danger?: boolean }) {
  const { t } = useTranslation("storytellers");
  const checkboxId = `${name}-confirm-${answerId}`;
  return (
    <details className="rounded-lg border border-line open:basis-full open:p-2">
      <summary className="cursor-pointer px-5 py-2.5 font-semibold">{t(`answers.${name}.open`)}</summary>
      <Form method="post" className="mt-2 flex flex-col gap-2">
        <input type="hidden" name="answerId" value={answerId} />
        <p>{t(`answers.${name}.explain`)}</p>
        <div className="flex items-start gap-2">
          <input type="checkbox" id={checkboxId} name="confirm" required className="mt-1 size-5" />
          <label htmlFor={checkboxId}>{t(`answers.${name}.confirm`)}</label>
        </div>
        <button type="submit" name="intent" value={intent} className={`${danger ? "btn-danger" : "btn-primary"} self-start`}>
          {t(`answers.${name}.submit`)}
        </button>
      </Form>
    </details>
  );
}

/**
 * Drag and drop, when JavaScript runs: posts the same "place" intent the server understands, and
 * shows the new order at once (the buttons remain for keyboards and for pages without JavaScript).
 */
function useDragToReorder(saved: QueuedPrompt[]) {
  const fetcher = useFetcher();
  const [hydrated, setHydrated] = useState(false);
  const [dragging, setDragging] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);

  let prompts = saved;
  const pending = fetcher.formData;
  if (pending?.get("intent") === "place") {
    const moved = saved.find((p) => p.id === pending.get("promptId"));
    const rest = saved.filter((p) => p !== moved);
    const before = rest.findIndex((p) => p.id === pending.get("beforeId"));
    if (moved) prompts = [...rest.slice(0, before < 0 ? rest.length : before), moved, ...rest.slice(before < 0 ? rest.length : before)];
  }

  const dragProps = (id: string) => ({
    "data-dragging": dragging === id,
    onDragStart: (event: React.DragEvent) => {
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
      fetcher.submit({ intent: "place", promptId: dragging, beforeId }, { method: "post" });
      setDragging(null);
    },
  });
  return { prompts, draggable: hydrated, dragProps };
}
