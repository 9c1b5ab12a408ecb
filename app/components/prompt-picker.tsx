import { useTranslation } from "react-i18next";

export type LibraryCategory = { id: string; name: string; prompts: { id: number; text: string }[] };

/**
 * The curated categories (each a disclosure) plus a box for your own questions, one per line; or,
 * with `choose="one"` (My Stories' "Record a story"), the categories alone, to pick one question.
 */
export function PromptPicker({
  library,
  idPrefix = "",
  choose = "many",
}: {
  library: LibraryCategory[];
  idPrefix?: string;
  choose?: "many" | "one";
}) {
  const { t } = useTranslation("storytellers");
  return (
    <>
      {library.map((category) => (
        <details key={category.id} className="rounded-lg border border-line bg-panel p-4">
          <summary className="cursor-pointer font-semibold">{category.name}</summary>
          <ul className="mt-3 flex flex-col gap-2">
            {category.prompts.map((prompt) => (
              <li key={prompt.id}>
                <label className="flex items-start gap-2">
                  {choose === "one" ? (
                    <input type="radio" name="libraryPromptId" value={prompt.id} className="mt-1" />
                  ) : (
                    <input type="checkbox" name="libraryPromptIds" value={prompt.id} className="mt-1" />
                  )}
                  <span>{prompt.text}</span>
                </label>
              </li>
            ))}
          </ul>
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
