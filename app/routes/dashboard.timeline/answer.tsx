import { useTranslation } from "react-i18next";
import { AnswerReactions, type ReactionsView } from "~/components/answer-reactions";
import { AnswerWithWords } from "~/components/answer-words";
import type { TimelineItem } from "~/models/timeline.server";
import type { WordsView } from "~/utils/words";

type Item = Omit<TimelineItem, "words"> & {
  words: WordsView;
  dateLabel: string;
  durationLabel: string | null;
  reactions: ReactionsView | null;
};

/** One answer on the Timeline: who and when, the question, a seekable player, its length and transcript. */
export function TimelineAnswer({ item, locale, noteError }: { item: Item; locale: string; noteError?: string }) {
  const { t } = useTranslation("timeline");
  const headingId = `answer-${item.id}`;
  const who = item.voice === "family" ? item.storytellerName : t("item.you");
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-2 rounded-lg border border-line bg-panel p-4"
      data-testid="timeline-answer"
    >
      <h3 id={headingId} className="font-semibold">
        {item.question}
      </h3>
      <p className="text-sm text-muted">
        <span data-testid="timeline-storyteller">{who}</span>
        {item.voice === "answeredFor" ? <> · {t("item.askedBy", { name: item.askerName })}</> : null} ·{" "}
        <time dateTime={item.answeredAt}>{item.dateLabel}</time>
        {item.durationLabel ? <span> · {t("item.duration", { time: item.durationLabel })}</span> : null}
        {item.viaPhone ? <span data-testid="timeline-via-phone"> · {t("item.viaPhone")}</span> : null}
      </p>
      {item.isPrivate ? <p className="text-sm">{t("item.private")}</p> : null}
      <AnswerWithWords
        audioSrc={item.durationMs === null ? null : `/media/answer/${item.id}`}
        captionsSrc={`/media/answer/${item.id}/captions.vtt`}
        label={t("item.player", { name: who, question: item.question })}
        words={item.words}
        lang={locale}
        // Their own family's answers, and their own stories: not an answer they gave someone else.
        correctHref={
          item.voice === "answeredFor" ? null : `/dashboard/answers/${item.id}/words?from=/dashboard/timeline`
        }
      />
      {item.reactions ? (
        <AnswerReactions
          answerId={item.id}
          storytellerName={item.storytellerName}
          reactions={item.reactions}
          noteError={noteError}
        />
      ) : null}
    </article>
  );
}
