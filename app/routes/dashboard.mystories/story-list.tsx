import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { AnswerWithWords } from "~/components/answer-words";
import { formatDay } from "~/utils/intl-formats";
import { useRootData } from "~/utils/root-data";
import type { WordsView } from "~/utils/words";
import { Intent } from "./intents";
import { ConfirmedDelete } from "./record-a-story";

type Story = {
  id: string;
  promptId: string;
  question: string;
  own: boolean;
  askerName: string;
  storytellerId: string;
  isPrivate: boolean;
  /** False for a written answer (a reply by email): words only. */
  hasRecording: boolean;
  answeredAt: string;
  words: WordsView;
};

/**
 * The user's stories, newest first: each with its player (private ones too: they are the user's),
 * transcript, private flag (one button that flips it), Delete and the printable page. All plain
 * links and form posts.
 */
export function StoryList({ stories, locale }: { stories: Story[]; locale: string }) {
  const { t } = useTranslation("stories");
  const timeZone = useRootData()?.timeZone ?? "UTC";
  return (
    <section aria-labelledby="your-stories" className="flex flex-col gap-3">
      <h2 id="your-stories" className="text-xl font-semibold">
        {t("list.heading")}
      </h2>
      {stories.length === 0 ? <p>{t("list.empty")}</p> : null}
      <ul className="flex flex-col gap-3">
        {stories.map((story) => {
          const when = formatDay(locale, story.answeredAt, timeZone);
          return (
            <li
              key={story.id}
              className="flex flex-col gap-2 rounded-lg border border-line bg-panel p-4"
              data-testid="story"
            >
              <h3 className="text-lg font-semibold">{story.question}</h3>
              <p className="text-sm text-muted">
                {story.own ? t("list.own", { date: when }) : t("list.askedBy", { name: story.askerName, date: when })}
              </p>
              <AnswerWithWords
                audioSrc={story.hasRecording ? `/media/answer/${story.id}` : null}
                captionsSrc={`/media/answer/${story.id}/captions.vtt`}
                label={t("list.player", { question: story.question })}
                words={story.words}
                lang={locale}
                // Their own stories they may correct; an answer to someone else's question is that family's.
                correctHref={story.own ? `/dashboard/answers/${story.id}/words?from=/dashboard/mystories` : null}
              />
              {story.isPrivate ? <p className="text-sm font-medium">{t("list.private")}</p> : null}
              <div className="flex flex-wrap items-start gap-2">
                <Form method="post">
                  <input type="hidden" name="answerId" value={story.id} />
                  <input type="hidden" name="private" value={story.isPrivate ? "0" : "1"} />
                  <button type="submit" name="intent" value={Intent.privacy} className="btn-secondary">
                    {story.isPrivate ? t("list.makeShared") : t("list.makePrivate")}
                  </button>
                </Form>
                <ConfirmedDelete
                  promptId={story.promptId}
                  explain={story.own ? t("delete.explainOwn") : t("delete.explainAnswer", { name: story.askerName })}
                />
              </div>
              <a href={`/responses/${story.storytellerId}`} className="link self-start text-sm">
                {story.own ? t("list.printableOwn") : t("list.printable", { name: story.askerName })}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
