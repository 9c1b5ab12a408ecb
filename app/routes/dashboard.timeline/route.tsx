import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SearchBox } from "~/components/search-box";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { TimelineAnswer } from "./answer";
import { Param } from "./intents";
import { reactToAnswer, timelinePage } from "./server";

export const handle = { i18n: ["timeline", "words"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  return timelinePage(request, context, user);
}

export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  return reactToAnswer(request, context, user);
}

/**
 * Every answer the user may hear, newest first, in month groups, twenty at a time. The filter is a
 * GET form (with JavaScript it also submits when the choice changes); paging is a plain link.
 */
export default function Timeline() {
  const { t } = useTranslation("timeline");
  const { storytellers, selected, months, olderLink, newestLink, locale } = useLoaderData<typeof loader>();
  // A note refused without JavaScript comes back here, for its answer.
  const refused = useActionData<typeof action>()?.reaction;
  const filterId = "timeline-storyteller";
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold">{t("title")}</h1>
        <p className="text-muted">{t("intro")}</p>
      </header>
      <SearchBox />
      {storytellers.length ? (
        <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label={t("filter.label")}>
          <div className="flex max-w-full min-w-0 flex-col gap-1">
            <label htmlFor={filterId} className="text-sm font-medium">
              {t("filter.storyteller")}
            </label>
            <select
              id={filterId}
              name={Param.storyteller}
              defaultValue={selected}
              key={selected}
              className="input"
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
            >
              <option value="">{t("filter.all")}</option>
              {storytellers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.kind === "self"
                    ? t("filter.self")
                    : s.kind === "answeredFor"
                      ? t("filter.answeredFor", { name: s.askerName })
                      : s.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-secondary">
            {t("filter.show")}
          </button>
        </Form>
      ) : null}
      {months.length === 0 ? (
        <div
          className="rounded-xl border border-dashed border-line bg-panel p-8 text-center"
          data-testid="timeline-empty"
        >
          <p className="mb-3">{newestLink ? t("empty.noOlder") : selected ? t("empty.filtered") : t("empty.none")}</p>
          {newestLink ? (
            <Link to={newestLink} className="link">
              {t("paging.newest")}
            </Link>
          ) : !selected ? (
            <Link to="/dashboard" className="link">
              {t("empty.toStorytellers")}
            </Link>
          ) : null}
        </div>
      ) : (
        months.map((group) => (
          <section key={group.month} aria-labelledby={`month-${group.month}`} data-testid="timeline-month">
            <h2 id={`month-${group.month}`} className="mb-3 text-lg font-semibold">
              {group.label}
            </h2>
            <ul className="flex flex-col gap-3">
              {group.items.map((item) => (
                <li key={item.id}>
                  <TimelineAnswer
                    item={item}
                    locale={locale}
                    noteError={
                      refused && "noteError" in refused && refused.answerId === item.id ? refused.noteError : undefined
                    }
                  />
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
      {months.length && (olderLink || newestLink) ? (
        <nav aria-label={t("paging.label")} className="flex flex-wrap gap-3">
          {newestLink ? (
            <Link to={newestLink} className="btn-secondary">
              {t("paging.newest")}
            </Link>
          ) : null}
          {olderLink ? (
            <Link to={olderLink} className="btn-primary" rel="next">
              {t("paging.older")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
