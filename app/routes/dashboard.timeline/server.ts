import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { SessionUser } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { react, reactionsOn } from "~/models/reaction.server";
import { getTimelinePage, groupByMonth, listTimelineStorytellers, parseTimelineCursor } from "~/models/timeline.server";
import { wordsView } from "~/models/transcript-edit.server";
import { redirectWithToast } from "~/services/toast.server";
import { dateTimeFormat, formatDay, formatLength, intlLocale, monthOf, readerTimeZone } from "~/utils/intl-formats";
import { pageTitle } from "~/utils/page-title.server";
import { ReactionIntent } from "~/utils/reaction-intents";
import { reactionSchema } from "~/utils/reaction-schema";
import { readForm } from "~/utils/request-body.server";
import { Param, searchSchema } from "./schema";

/** "3:07": an answer's length (at most 5:00). */
export const formatDuration = (ms: number) => formatLength(Math.round(ms / 1000));

/**
 * The page's data: one page of answers in month groups, the filter's choices, and the next page's
 * address. Months and dates are written here, in the page's language and the reader's time zone
 * (like the Sent tab and the book), so the browser renders the same text the server did.
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
  // Hearts and notes only on the family's answers: not on one's own stories or answers given to others.
  const reactions = await reactionsOn(
    context.db,
    user.id,
    page.items.filter((item) => item.voice === "family" && !item.isPrivate).map((item) => item.id),
  );
  const zone = readerTimeZone(user);
  const monthFormat = dateTimeFormat(intlLocale(locale), { month: "long", year: "numeric", timeZone: "UTC" });
  const inZone = page.items.map((item) => ({ ...item, month: monthOf(item.answeredAt, zone) }));
  const months = groupByMonth(inZone).map(({ month, items }) => {
    const [year, monthNumber] = month.split("-").map(Number);
    return {
      month,
      label: monthFormat.format(Date.UTC(year, monthNumber - 1, 1)),
      items: items.map(({ words, ...item }) => ({
        ...item,
        words: wordsView(words, locale, zone),
        dateLabel: formatDay(locale, item.answeredAt, zone),
        durationLabel: item.durationMs === null ? null : formatDuration(item.durationMs),
        reactions: reactions.get(item.id) ?? null,
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

/**
 * A heart or a note on an answer (decision 048). With JavaScript (a fetcher sends "js") the reply
 * is data and the page stays put; without, the page comes back to the answer (its anchor). A note
 * refused goes back to its field; an answer the user may not hear is a 404.
 */
export async function reactToAnswer(request: Request, context: AppContext, user: SessionUser) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: reactionSchema });
  if (submission.status !== "success") {
    const answerId = String(form.get("answerId") ?? "");
    // Only the note is typed: anything else wrong is a hand-made post, refused bare.
    const onlyTheNote = Object.keys(submission.error ?? {}).every((field) => field === "note");
    if (form.get("intent") !== ReactionIntent.note || !onlyTheNote) throw new Response("Bad Request", { status: 400 });
    const noteError = submission.error?.note?.[0] ?? "validation.required";
    // conform's reply too: the one error shape every refused form has.
    return data({ reaction: { answerId, noteError }, result: submission.reply() }, { status: 400 });
  }
  const input = submission.value;
  const reaction =
    input.intent === ReactionIntent.note ? { kind: input.intent, note: input.note } : { kind: input.intent };
  const result = await react(context.db, user.id, input.answerId, reaction);
  if (result.kind === "not-found") throw new Response(null, { status: 404 });
  if (form.get("js")) return data({ reaction: { answerId: input.answerId, saved: true } });
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const back = `${url.pathname}${url.search}#answer-${input.answerId}`;
  return input.intent === ReactionIntent.note
    ? redirectWithToast(request, context, back, { type: "success", key: "timeline:reactions.noteSent" })
    : redirect(back);
}
