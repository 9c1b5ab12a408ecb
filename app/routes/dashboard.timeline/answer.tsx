import { useTranslation } from "react-i18next";
import { WordsComing } from "~/components/words-coming";
import type { TimelineItem } from "~/models/timeline.server";

type Item = TimelineItem & { dateLabel: string; durationLabel: string };

/** One answer on the Timeline: who and when, the question, a seekable player, its length and transcript. */
export function TimelineAnswer({ item }: { item: Item }) {
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
        <time dateTime={item.answeredAt}>{item.dateLabel}</time> ·{" "}
        <span>{t("item.duration", { time: item.durationLabel })}</span>
        {item.viaPhone ? <span data-testid="timeline-via-phone"> · {t("item.viaPhone")}</span> : null}
      </p>
      {item.isPrivate ? <p className="text-sm">{t("item.private")}</p> : null}
      <audio
        controls
        preload="none"
        src={`/media/answer/${item.id}`}
        aria-label={t("item.player", { name: who, question: item.question })}
        className="w-full"
      />
      <Transcript status={item.transcriptStatus} text={item.transcript} />
    </article>
  );
}

function Transcript({ status, text }: { status: Item["transcriptStatus"]; text: string | null }) {
  const { t } = useTranslation("timeline");
  if (status === "pending") return <p className="text-sm text-muted">{t("item.transcribing")}</p>;
  if (status === "waiting") return <WordsComing />;
  if (status === "done" && text?.trim())
    return (
      <figure className="flex flex-col gap-1" data-testid="transcript">
        <figcaption className="text-sm font-medium">{t("item.transcript")}</figcaption>
        <blockquote className="whitespace-pre-line">{text}</blockquote>
      </figure>
    );
  return (
    <p className="text-sm text-muted" data-testid="transcript">
      {t("item.noTranscript")}
    </p>
  );
}
