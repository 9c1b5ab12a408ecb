import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { AddGroupLink } from "~/components/add-group-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { listGroupCards } from "~/models/group.server";
import { listStorytellerCards } from "~/models/storyteller.server";
import { getTimelinePage } from "~/models/timeline.server";
import { wordsView } from "~/models/transcript-edit.server";
import { formatDay, readerTimeZone } from "~/utils/intl-formats";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { TimelineAnswer } from "./dashboard.timeline/answer";
import { formatDuration } from "./dashboard.timeline/server";

export const handle = { i18n: ["storytellers", "groups", "timeline", "words"] };

/** How many of the newest answers lead the overview; the Timeline has them all. */
const NEWEST_ANSWERS = 3;
export const meta = titleFromLoader;

// Every dashboard loader checks sign-in itself: React Router runs the layout's loader in parallel, not first.
export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  // The newest answers the user may hear (the Timeline's rule: the media route's), played in place.
  const [locale, latest] = await Promise.all([i18nServer.getLocale(request), getTimelinePage(context.db, user)]);
  return {
    title: await pageTitle(request, context, "dashboard.storytellers.title"),
    newest: latest.items.slice(0, NEWEST_ANSWERS).map(({ words, ...item }) => ({
      ...item,
      words: wordsView(words, locale, readerTimeZone(user)),
      dateLabel: formatDay(locale, item.answeredAt, readerTimeZone(user)),
      durationLabel: item.durationMs === null ? null : formatDuration(item.durationMs),
      // Hearts and notes are given on the Timeline, whose action takes them.
      reactions: null,
    })),
    locale,
    storytellers: await listStorytellerCards(context.db, user.id),
    groups: await listGroupCards(context.db, user.id),
  };
}

export default function StorytellersOverview() {
  const { t } = useTranslation(["common", "storytellers"]);
  const { storytellers, groups, newest, locale } = useLoaderData<typeof loader>();
  // A Storyteller the user sees as a collaborator is marked with the group(s) it comes through.
  const throughGroups = new Map<string, string[]>();
  for (const g of groups)
    if (g.role === "collaborator")
      throughGroups.set(g.storyteller_id, [...(throughGroups.get(g.storyteller_id) ?? []), g.name]);
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{t("dashboard.storytellers.title")}</h1>
        {storytellers.length ? (
          <div className="flex flex-wrap gap-2">
            <Link to="/dashboard/kanban" className="btn-secondary">
              {t("storytellers:board.title")}
            </Link>
            <Link to="/dashboard/onboarding" className="btn-primary">
              {t("nav.addStoryteller")}
            </Link>
          </div>
        ) : null}
      </div>
      {newest.length ? (
        <section aria-labelledby="newest-heading" className="mb-10" data-testid="newest-answers">
          <div className="mb-4 flex flex-wrap items-baseline justify-between gap-3">
            <h2 id="newest-heading" className="text-xl font-bold">
              {t("storytellers:overview.newest")}
            </h2>
            <Link to="/dashboard/timeline" className="link-target">
              {t("storytellers:overview.allAnswers")}
            </Link>
          </div>
          <div className="flex flex-col gap-4">
            {newest.map((item) => (
              <TimelineAnswer key={item.id} item={item} locale={locale} />
            ))}
          </div>
        </section>
      ) : null}
      {storytellers.length === 0 ? (
        <div className="rounded-xl border border-dashed border-line bg-panel p-10 text-center">
          <h2 className="mb-2 text-lg font-semibold">{t("dashboard.storytellers.emptyTitle")}</h2>
          <p className="mb-4 text-muted">{t("dashboard.storytellers.emptyBody")}</p>
          <Link to="/dashboard/onboarding" className="btn-primary">
            {t("nav.addStoryteller")}
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 min-[700px]:grid-cols-2 min-[1100px]:grid-cols-3">
          {storytellers.map((s) => (
            <li
              key={s.id}
              className="flex flex-col gap-3 rounded-xl border border-line bg-panel p-5"
              data-testid="storyteller-card"
            >
              <div className="flex items-center gap-3">
                <span
                  className="flex h-12 w-12 items-center justify-center rounded-full bg-primary text-lg font-bold text-white"
                  aria-hidden="true"
                >
                  {s.nickname.slice(0, 1).toUpperCase()}
                </span>
                <div>
                  <h2 className="text-lg font-semibold">
                    <Link to={`/dashboard/recipient/${s.id}`} className="link-target">
                      {s.nickname}
                    </Link>
                  </h2>
                  <p className="text-sm text-muted">
                    {[s.relationship, t(`storytellers:fields.delivery.${s.delivery_method}`)]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
              </div>
              <dl className="text-sm">
                <dt className="font-medium">{t("storytellers:card.nextPrompt")}</dt>
                <dd className="mb-2 text-muted">{s.next_prompt ?? t("storytellers:card.noneQueued")}</dd>
                <dt className="font-medium">{t("storytellers:card.lastSent")}</dt>
                <dd className="mb-2 text-muted">{s.last_sent_prompt ?? t("storytellers:card.noneSent")}</dd>
                <dt className="font-medium">{t("storytellers:card.answered")}</dt>
                <dd className="text-muted">{s.answered ?? 0}</dd>
              </dl>
              {throughGroups.has(s.id) ? (
                <p className="text-sm text-muted" data-testid="group-storyteller-mark">
                  {t("groups:card.groupStoryteller", { group: throughGroups.get(s.id)!.join(", ") })}
                </p>
              ) : null}
              {s.unsubscribed_at || s.sms_consent === "revoked" || s.call_consent === "revoked" ? (
                <p className="text-sm text-danger">{t("storytellers:card.unsubscribed")}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {groups.length ? (
        <section aria-labelledby="groups-heading" className="mt-10">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2 id="groups-heading" className="text-xl font-bold">
              {t("groups:card.heading")}
            </h2>
            <AddGroupLink className="btn-secondary" />
          </div>
          <ul className="grid gap-4 min-[700px]:grid-cols-2 min-[1100px]:grid-cols-3">
            {groups.map((g) => (
              <li
                key={g.id}
                className="flex flex-col gap-3 rounded-xl border border-line bg-panel p-5"
                data-testid="group-card"
              >
                <div>
                  <h3 className="text-lg font-semibold">
                    <Link to={`/dashboard/groups/${g.id}`} className="link-target">
                      {g.name}
                    </Link>
                  </h3>
                  <p className="text-sm text-muted">{g.description}</p>
                </div>
                <p className="text-sm">
                  {t("groups:card.storyteller")}{" "}
                  <Link to={`/dashboard/recipient/${g.storyteller_id}`} className="link">
                    {g.storyteller}
                  </Link>
                </p>
                <ul className="flex gap-1" aria-label={t("groups:card.members")}>
                  {(g.initials ?? []).map((initials, index) => (
                    <li
                      key={`${initials}-${index}`}
                      className="flex h-8 w-8 items-center justify-center rounded-full bg-primary text-xs font-bold text-white"
                    >
                      {initials}
                    </li>
                  ))}
                </ul>
                <dl className="text-sm">
                  <dt className="font-medium">{t("storytellers:card.nextPrompt")}</dt>
                  <dd className="mb-2 text-muted">{g.next_prompt ?? t("storytellers:card.noneQueued")}</dd>
                  <dt className="font-medium">{t("storytellers:card.lastSent")}</dt>
                  <dd className="text-muted">{g.last_sent_prompt ?? t("storytellers:card.noneSent")}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
