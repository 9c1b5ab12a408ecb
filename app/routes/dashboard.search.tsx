import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MarkedText } from "~/components/marked-text";
import { SearchBox } from "~/components/search-box";
import type { LoaderArgs } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { parseSearchQuery, SEARCH_LIMIT, searchAnswers } from "~/models/search.server";
import { formatDay, readerTimeZone } from "~/utils/intl-formats";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { clockOf } from "~/utils/words";

export const handle = { i18n: ["words"] };
export const meta = titleFromLoader;

/** Search every story by what was said: a GET form, so it works (and can be bookmarked) without JavaScript. */
export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const raw = new URL(request.url).searchParams.get("q");
  const parsed = parseSearchQuery(raw);
  const [title, locale] = await Promise.all([
    pageTitle(request, context, "search.title", "words"),
    i18nServer.getLocale(request),
  ]);
  const hits = parsed.ok ? await searchAnswers(context.db, user, parsed.query) : [];
  return {
    title,
    query: (raw ?? "").slice(0, 200),
    problem: parsed.ok || parsed.problem === "empty" ? null : parsed.problem,
    searched: parsed.ok,
    limit: SEARCH_LIMIT,
    hits: hits.map(({ answeredAt, ...hit }) => ({
      ...hit,
      dateLabel: formatDay(locale, answeredAt, readerTimeZone(user)),
    })),
  };
}

export default function Search() {
  const { t } = useTranslation("words");
  const { query, problem, searched, hits, limit } = useLoaderData<typeof loader>();
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold">{t("search.title")}</h1>
        <p className="text-muted">{t("search.lead")}</p>
      </header>
      <SearchBox query={query} />
      {problem ? (
        <p role="alert" className="rounded-lg border border-danger p-3 text-danger">
          {t(problem === "tooLong" ? "search.tooLong" : "search.invalid")}
        </p>
      ) : null}
      {searched ? (
        <p role="status" data-testid="search-count">
          {hits.length ? t("search.results", { count: hits.length }) : t("search.none", { query })}
        </p>
      ) : null}
      <ol className="flex flex-col gap-3">
        {hits.map((hit) => {
          const from = hit.startAt ?? 0;
          return (
            <li
              key={hit.id}
              className="flex flex-col gap-2 rounded-lg border border-line bg-panel p-4"
              data-testid="search-hit"
            >
              <h2 className="font-semibold">
                {/* To the answer where it is kept: its Storyteller's Sent tab, or My Stories. */}
                <Link to={hit.href} className="link-target" data-testid="search-hit-link">
                  <span>
                    <MarkedText text={hit.questionMarked} />
                  </span>
                </Link>
              </h2>
              <p className="text-sm text-muted">
                {t("search.from", { name: hit.storytellerName, date: hit.dateLabel })}
              </p>
              {hit.snippet ? (
                <p className="leading-relaxed" data-testid="search-snippet">
                  <MarkedText text={hit.snippet} />
                </p>
              ) : null}
              <audio
                controls
                preload="none"
                // A media fragment: the player starts where the words were found, with or without JavaScript.
                src={`/media/answer/${hit.id}${hit.startAt != null ? `#t=${from}` : ""}`}
                aria-label={t("search.playLabel", { name: hit.storytellerName, time: clockOf(from) })}
                className="w-full"
              />
              {hit.startAt != null ? (
                <p className="text-sm text-muted">{t("search.playFrom", { time: clockOf(from) })}</p>
              ) : null}
            </li>
          );
        })}
      </ol>
      {hits.length >= limit ? <p className="text-sm text-muted">{t("search.more", { count: limit })}</p> : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
