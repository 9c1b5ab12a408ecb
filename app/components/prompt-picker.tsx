import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldErrors } from "~/components/forms";
import { said } from "~/components/question-errors";

/** A library question in her words, with the reader's beside them when they read another language. */
export type LibraryPrompt = { id: number; text: string; gloss?: string };
export type LibraryCategory = { id: string; name: string; prompts: LibraryPrompt[] };
/** The add button stays in sight however long the list: a bar stuck to the bottom of the page or dialog. */
export const addBarClass = "sticky bottom-0 z-10 flex flex-wrap gap-3 border-t border-line bg-surface py-3";
/** A category's heading: the whole row opens it, 44 px tall (the card's padding is the summary's). */
export const summaryClass = "min-h-11 cursor-pointer px-4 py-2.5 font-semibold";
/** A question to tick: the row is the target, 44 px tall. */
export const pickClass = "flex min-h-11 items-start gap-3 py-2.5";

/** The Add questions page's library (getPickerLibrary): each category's size, queued questions marked. */
type PickerPrompt = LibraryPrompt & { queued?: boolean };
type PickerCategory = { id: string; name: string; total?: number; prompts: PickerPrompt[] };

/** Her words, and the reader's under them (in his language, so he knows what he is choosing). */
function PromptWords({ prompt }: { prompt: LibraryPrompt }) {
  return prompt.gloss ? (
    <>
      <span className="block">{prompt.text}</span>
      <span className="block text-sm text-muted">{prompt.gloss}</span>
    </>
  ) : (
    prompt.text
  );
}

/**
 * The curated categories (each a disclosure) plus a box for your own questions, one per line; or,
 * with `choose="one"` (My Stories' "Record a story"), the categories alone, to pick one question.
 * The ticks are one selection across searches and categories: `picked` (from the page's URL or
 * draft) starts it, and each ticked question not in sight rides along as a ticked box in "N selected".
 */
export function PromptPicker({
  library,
  idPrefix = "",
  choose = "many",
  starter = [],
  searching = false,
  picked = [],
  custom = true,
  customText = "",
  customErrors,
}: {
  library: PickerCategory[];
  idPrefix?: string;
  choose?: "many" | "one";
  /** Suggested first questions, shown open above the categories. */
  starter?: PickerPrompt[];
  /** A search's results: every category with a match is open, the others are left out. */
  searching?: boolean;
  /** The questions ticked before this page was drawn (kept across searches). */
  picked?: LibraryPrompt[];
  /** The box for his own questions (onboarding draws its own). */
  custom?: boolean;
  /** What he had typed in that box before searching, or in the post refused. */
  customText?: string;
  /** That post's refusals of his questions, said line by line (useQuestionLineMessages). */
  customErrors?: string[];
}) {
  const { t } = useTranslation("storytellers");
  // A refusal after a post made with JavaScript: the box it is about takes the focus.
  const customBox = useRef<HTMLTextAreaElement>(null);
  const refusal = customErrors?.join("\n");
  useEffect(() => {
    if (refusal) customBox.current?.focus();
  }, [refusal]);
  const [selection, setSelection] = useState(() => new Map(picked.map((prompt) => [prompt.id, prompt])));
  const toggle = (prompt: LibraryPrompt, on: boolean) =>
    setSelection((now) => {
      const next = new Map(now);
      if (on) next.set(prompt.id, { id: prompt.id, text: prompt.text, gloss: prompt.gloss });
      else next.delete(prompt.id);
      return next;
    });
  const shown = searching ? library.filter((category) => category.prompts.length) : library;
  const inSight = new Set([...starter, ...shown.flatMap((category) => category.prompts)].map((prompt) => prompt.id));
  const item = (prompt: PickerPrompt, where: string) => (
    <li key={prompt.id}>
      <label className={pickClass}>
        {choose === "one" ? (
          <input type="radio" name="libraryPromptId" value={prompt.id} className="mt-0.5 size-5 shrink-0" />
        ) : (
          <input
            type="checkbox"
            name="libraryPromptIds"
            value={prompt.id}
            className="mt-0.5 size-5 shrink-0"
            checked={!prompt.queued && selection.has(prompt.id)}
            onChange={(event) => toggle(prompt, event.currentTarget.checked)}
            // Already waiting in the queue: shown, not addable again (the server refuses it too).
            disabled={prompt.queued}
            aria-describedby={prompt.queued ? `${idPrefix}${where}-queued-${prompt.id}` : undefined}
          />
        )}
        <span className={prompt.queued ? "text-muted" : undefined}>
          <PromptWords prompt={prompt} />
          {prompt.queued ? (
            <span
              id={`${idPrefix}${where}-queued-${prompt.id}`}
              className="ms-2 inline-block rounded bg-line/60 px-1.5 py-0.5 text-xs text-ink"
            >
              {t("add.queued")}
            </span>
          ) : null}
        </span>
      </label>
    </li>
  );
  // A search's categories are open, and so is each holding a question ticked before the page was drawn.
  const opened = (category: PickerCategory) =>
    searching || category.prompts.some((prompt) => picked.some((p) => p.id === prompt.id));
  return (
    <>
      {starter.length ? (
        <details open className="rounded-lg border border-line bg-panel" data-testid="starter-set">
          <summary className={summaryClass}>{t("add.starter")}</summary>
          <p className="px-4 text-sm text-muted">{t("add.starterHint")}</p>
          <ul className="flex flex-col px-4 pt-1 pb-2">{starter.map((prompt) => item(prompt, "starter"))}</ul>
        </details>
      ) : null}
      {shown.map((category) => (
        <details key={category.id} open={opened(category)} className="rounded-lg border border-line bg-panel">
          <summary className={summaryClass}>
            {category.name}
            {category.total !== undefined ? (
              <span className="ms-2 text-sm font-normal text-muted">
                {searching
                  ? t("add.categoryMatches", { count: category.prompts.length, total: category.total })
                  : t("add.categoryCount", { count: category.total })}
              </span>
            ) : null}
          </summary>
          <ul className="flex flex-col px-4 pb-2">{category.prompts.map((prompt) => item(prompt, category.id))}</ul>
        </details>
      ))}
      {choose === "many" && custom ? (
        <>
          <label htmlFor={`${idPrefix}customPrompts`} className="font-medium">
            {t("fields.customPrompts")}
          </label>
          <textarea
            ref={customBox}
            id={`${idPrefix}customPrompts`}
            name="customPrompts"
            defaultValue={customText}
            aria-invalid={customErrors?.length ? true : undefined}
            aria-describedby={
              customErrors?.length
                ? `${idPrefix}customPrompts-hint ${idPrefix}customPrompts-error`
                : `${idPrefix}customPrompts-hint`
            }
            className="input min-h-32"
          />
          <p id={`${idPrefix}customPrompts-hint`} className="-mt-2 text-sm text-muted">
            {t("fields.customPromptsHint")}
          </p>
          <FieldErrors id={`${idPrefix}customPrompts-error`} errors={customErrors} say={said} />
        </>
      ) : null}
      {choose === "many" ? (
        <section aria-labelledby={`${idPrefix}picked-heading`} className="flex flex-col gap-1" data-testid="picked">
          <h2 id={`${idPrefix}picked-heading`} className="font-medium" aria-live="polite">
            {t("add.selected", { count: selection.size })}
          </h2>
          {selection.size ? (
            <ul className="flex flex-col">
              {[...selection.values()].map((prompt) =>
                // One in sight above is posted by its own box; one a search has hidden, by this one.
                inSight.has(prompt.id) ? (
                  <li key={prompt.id} className="flex min-h-11 items-center gap-3 ps-8">
                    <span>
                      <PromptWords prompt={prompt} />
                    </span>
                  </li>
                ) : (
                  <li key={prompt.id}>
                    <label className={pickClass}>
                      <input
                        type="checkbox"
                        name="libraryPromptIds"
                        value={prompt.id}
                        className="mt-0.5 size-5 shrink-0"
                        checked
                        onChange={() => toggle(prompt, false)}
                      />
                      <span>
                        <PromptWords prompt={prompt} />
                      </span>
                    </label>
                  </li>
                ),
              )}
            </ul>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

/**
 * The picker's search box: it finds a question by its English or its Hindi words, and says how many
 * matched. In a GET form of its own (the dialog's fetcher), or, with `getAction`, inside the picker's
 * POST form, its buttons searching by GET with everything ticked and typed riding along.
 */
export function PickerSearchFields({
  query,
  matches,
  idPrefix = "",
  clearHref,
  getAction,
}: {
  query: string;
  matches: number;
  idPrefix?: string;
  clearHref: string;
  getAction?: string;
}) {
  const { t } = useTranslation("storytellers");
  const byGet = getAction ? { formMethod: "get" as const, formAction: getAction, formNoValidate: true } : {};
  return (
    <div role="search" className="flex flex-col gap-2">
      <label htmlFor={`${idPrefix}picker-q`} className="font-medium">
        {t("add.searchLabel")}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={`${idPrefix}picker-q`}
          type="search"
          name="q"
          defaultValue={query}
          maxLength={100}
          className="input min-w-0 flex-1"
        />
        <button type="submit" className="btn-secondary" {...byGet}>
          {t("add.search")}
        </button>
      </div>
      {query ? (
        <p role="status" className="text-sm">
          {t("add.matches", { count: matches, query })}{" "}
          {getAction ? (
            // A button, not a link in the sentence: it is pressed on its own, so it gets a finger's room.
            <button type="submit" name="clear" value="1" className="link-target" {...byGet}>
              {t("add.clear")}
            </button>
          ) : (
            <a href={clearHref} className="link">
              {t("add.clear")}
            </a>
          )}
        </p>
      ) : null}
    </div>
  );
}
