import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { MAX_NOTE, ReactionIntent } from "~/utils/reaction-intents";
import { useHydrated } from "~/utils/use-hydrated";

export type ReactionsView = {
  hearts: number;
  heartedByMe: boolean;
  notes: { id: string; author: string; text: string; mine: boolean }[];
};

type ActionReply = { reaction?: { answerId: string; noteError?: string; saved?: boolean } };

/**
 * A heart and a short note on an answer (decision 048): plain forms posting to the page's own
 * action; with JavaScript a fetcher (no reload, the heart shown at once, the note box emptied).
 */
export function AnswerReactions({
  answerId,
  storytellerName,
  reactions,
  noteError,
}: {
  answerId: string;
  storytellerName: string;
  reactions: ReactionsView;
  noteError?: string;
}) {
  const { t } = useTranslation("timeline");
  const { t: tCommon } = useTranslation();
  const heart = useFetcher<ActionReply>({ key: `heart-${answerId}` });
  const note = useFetcher<ActionReply>({ key: `note-${answerId}` });
  const hydrated = useHydrated();
  const noteForm = useRef<HTMLFormElement>(null);
  // The heart as the click left it, before the server has answered.
  const pending = heart.formData?.get("intent");
  const hearted = pending ? pending === ReactionIntent.heart : reactions.heartedByMe;
  const hearts = reactions.hearts + (pending ? (hearted ? 1 : 0) - (reactions.heartedByMe ? 1 : 0) : 0);
  const error = note.data?.reaction?.noteError ?? noteError;
  const noteId = `note-${answerId}`;
  useEffect(() => {
    if (note.state === "idle" && note.data?.reaction?.saved) noteForm.current?.reset();
  }, [note.state, note.data]);
  return (
    <div className="flex flex-col gap-2 border-t border-line pt-3" data-testid="answer-reactions">
      <heart.Form method="post" preventScrollReset className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="answerId" value={answerId} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <button
          type="submit"
          name="intent"
          value={hearted ? ReactionIntent.unheart : ReactionIntent.heart}
          aria-pressed={hearted}
          className="btn-secondary min-h-11 gap-2"
          data-testid="heart-button"
        >
          <span aria-hidden="true">{hearted ? "♥" : "♡"}</span>{" "}
          {hearted ? t("reactions.hearted") : t("reactions.heart")}
        </button>
        <span className="text-sm text-muted" data-testid="heart-count">
          {t("reactions.hearts", { count: hearts })}
        </span>
      </heart.Form>
      {reactions.notes.length ? (
        <ul className="flex flex-col gap-1 text-sm" aria-label={t("reactions.notesLabel")}>
          {reactions.notes.map((item) => (
            <li key={item.id} data-testid="reaction-note">
              <span className="font-medium">{item.mine ? t("reactions.you") : item.author}:</span> {item.text}
            </li>
          ))}
        </ul>
      ) : null}
      <note.Form ref={noteForm} method="post" preventScrollReset className="flex flex-col gap-1">
        <input type="hidden" name="answerId" value={answerId} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <label htmlFor={noteId} className="text-sm font-medium">
          {t("reactions.noteLabel", { name: storytellerName })}
        </label>
        <div className="flex flex-wrap items-start gap-2">
          <textarea
            id={noteId}
            name="note"
            required
            maxLength={MAX_NOTE}
            rows={2}
            className="input min-w-0 flex-1 basis-56"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${noteId}-error` : undefined}
          />
          <button type="submit" name="intent" value={ReactionIntent.note} className="btn-secondary min-h-11">
            {t("reactions.sendNote")}
          </button>
        </div>
        {error ? (
          <p id={`${noteId}-error`} className="text-sm text-danger">
            {tCommon(error)}
          </p>
        ) : null}
      </note.Form>
    </div>
  );
}
