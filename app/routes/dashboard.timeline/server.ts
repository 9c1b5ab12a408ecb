import type { SessionUser } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { getTimelinePage, groupByMonth, listTimelineStorytellers, parseTimelineCursor } from "~/models/timeline.server";
import { wordsView } from "~/models/transcript-edit.server";
import { dateTimeFormat } from "~/utils/intl-formats";
import { pageTitle } from "~/utils/page-title.server";
import { Param, searchSchema } from "./schema";

const intlLocale = (locale: string) => (locale === "hi" ? "hi-IN" : "en-US");

/** "3:07": an answer's length (at most 5:00). */
export function formatDuration(ms: number) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The page's data: one page of answers in month groups, the filter's choices, and the next page's
 * address. Months and dates are written here, in the page's language (in UTC, like the Sent tab),
 * so the browser renders the same text the server did.
 */
export async function timelinePage(request: Request, context: AppContext, user: SessionUser) {
  const url = new URL(request.url);
  const search = searchSchema.parse(Object.fromEntries(url.searchParams));
  const storytellerId = search[Param.storyteller] ?? null;
  const before = parseTimelineCursor(search[Param.before]);
  const [title, locale, page, storytellers] = await Promise.all([
    pageTitle(request, context, "title", "timeline"),
    i18nServer.getLocale(request),
    getTimelinePage(context.db, user, { storytellerId, before }),
    listTimelineStorytellers(context.db, user),
  ]);
  const monthFormat = dateTimeFormat(intlLocale(locale), { month: "long", year: "numeric", timeZone: "UTC" });
  const dateFormat = dateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeZone: "UTC" });
  const months = groupByMonth(page.items).map(({ month, items }) => {
    const [year, monthNumber] = month.split("-").map(Number);
    return {
      month,
      label: monthFormat.format(Date.UTC(year, monthNumber - 1, 1)),
      items: items.map(({ words, ...item }) => ({
        ...item,
        words: wordsView(words, locale),
        dateLabel: dateFormat.format(new Date(item.answeredAt)),
        durationLabel: formatDuration(item.durationMs),
      })),
    };
  });
  const link = (cursor: string | null) => {
    const params = new URLSearchParams();
    if (storytellerId) params.set(Param.storyteller, storytellerId);
    if (cursor) params.set(Param.before, cursor);
    const query = params.toString();
    return query ? `/dashboard/timeline?${query}` : "/dashboard/timeline";
  };
  return {
    title,
    storytellers,
    selected: storytellerId ?? "",
    months,
    locale,
    olderLink: page.nextCursor ? link(page.nextCursor) : null,
    newestLink: before ? link(null) : null,
  };
}
