import { useTranslation } from "react-i18next";
import { Form } from "react-router";

/** The stories' search box: a GET form to /dashboard/search (the Timeline's and the search page's own). */
export function SearchBox({ query = "" }: { query?: string }) {
  const { t } = useTranslation("words");
  return (
    <Form
      method="get"
      action="/dashboard/search"
      role="search"
      aria-label={t("search.title")}
      className="flex flex-wrap items-end gap-2"
    >
      <div className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
        <label htmlFor="search-q" className="text-sm font-medium">
          {t("search.label")}
        </label>
        <input
          id="search-q"
          type="search"
          name="q"
          defaultValue={query}
          key={query}
          maxLength={200}
          placeholder={t("search.placeholder")}
          className="input w-full"
        />
      </div>
      <button type="submit" className="btn-primary">
        {t("search.submit")}
      </button>
    </Form>
  );
}
