import { useTranslation } from "react-i18next";

export type LibraryCategory = { id: string; name: string; prompts: { id: number; text: string }[] };
/** The add button stays in sight however long the list: a bar stuck to the bottom of the page or dialog. */
export const addBarClass = "sticky bottom-0 z-10 flex flex-wrap gap-3 border-t border-line bg-surface py-3";
/** A category's heading: the whole row opens it, 44 px tall (the card's padding is the summary's). */
export const summaryClass = "min-h-11 cursor-pointer px-4 py-2.5 font-semibold";
/** A question to tick: the row is the target, 44 px tall. */
export const pickClass = "flex min-h-11 items-start gap-3 py-2.5";

/** The Add questions page's library (getPickerLibrary): each category's size, queued questions marked. */
type PickerPrompt = { id: number; text: string; queued?: boolean };
type PickerCategory = { id: string; name: string; total?: number; prompts: PickerPrompt[] };

/**
 * The curated categories (each a disclosure) plus a box for your own questions, one per line; or,
 * with `choose="one"` (My Stories' "Record a story"), the categories alone, to pick one question.
 */
export function PromptPicker({
  library,
  idPrefix = "",
  choose = "many",
  starter = [],
  searching = false,
}: {
  library: PickerCategory[];
  idPrefix?: string;
  choose?: "many" | "one";
  /** Suggested first questions, shown open above the categories. */
  starter?: PickerPrompt[];
  /** A search's results: every category with a match is open, the others are left out. */
  searching?: boolean;
}) {
  const { t } = useTranslation("storytellers");
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
            // Already waiting in the queue: shown, not addable again (the server refuses it too).
            disabled={prompt.queued}
            aria-describedby={prompt.queued ? `${idPrefix}${where}-queued-${prompt.id}` : undefined}
          />
        )}
        <span className={prompt.queued ? "text-muted" : undefined}>
          {prompt.text}
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
  const shown = searching ? library.filter((category) => category.prompts.length) : library;
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
        <details key={category.id} open={searching} className="rounded-lg border border-line bg-panel">
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
      {choose === "many" ? (
        <>
          <label htmlFor={`${idPrefix}customPrompts`} className="font-medium">
            {t("fields.customPrompts")}
          </label>
          <textarea
            id={`${idPrefix}customPrompts`}
            name="customPrompts"
            aria-describedby={`${idPrefix}customPrompts-hint`}
            className="input min-h-32"
          />
          <p id={`${idPrefix}customPrompts-hint`} className="-mt-2 text-sm text-muted">
            {t("fields.customPromptsHint")}
          </p>
        </>
      ) : null}
    </>
  );
}

/**
 * The picker's search box, inside a GET form (a page's, or the dialog's fetcher's): it finds a
 * question by its English or its Hindi words, and says how many matched.
 */
export function PickerSearchFields({
  query,
  matches,
  idPrefix = "",
  clearHref,
}: {
  query: string;
  matches: number;
  idPrefix?: string;
  clearHref: string;
}) {
  const { t } = useTranslation("storytellers");
  return (
    <>
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
        <button type="submit" className="btn-secondary">
          {t("add.search")}
        </button>
      </div>
      {query ? (
        <p role="status" className="text-sm">
          {t("add.matches", { count: matches, query })}{" "}
          <a href={clearHref} className="link">
            {t("add.clear")}
          </a>
        </p>
      ) : null}
    </>
  );
}
