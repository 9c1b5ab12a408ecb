import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { WordsComing } from "~/components/words-coming";
import { followWords } from "~/utils/follow-words";
import { paragraphsOf, paragraphsOfText, type WordsView } from "~/utils/words";

/**
 * An answer's player and its words (decision 037): the segments as paragraphs, each one a
 * `data-start` span the island (app/utils/follow-words.ts) marks while it is spoken and plays from
 * when tapped; the captions ride along as the player's <track>. Without JavaScript: paragraphs.
 * `standalone` pages (share links) run the island from their own script instead of React.
 */
export function AnswerWithWords({
  audioSrc,
  captionsSrc,
  label,
  words,
  lang,
  correctHref,
  standalone = false,
  children,
}: {
  /** Null for a written answer (a reply by email): its words only. */
  audioSrc: string | null;
  captionsSrc: string | null;
  label: string;
  words: WordsView;
  lang: string;
  /** Where the family corrects the words (owner and collaborators), or none. */
  correctHref?: string | null;
  standalone?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation("words");
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (standalone || !root.current ? undefined : followWords(root.current)), [standalone, words]);
  const hasCaptions = Boolean(captionsSrc && words.status === "done" && words.segments.length);
  return (
    <div ref={root} data-words-player className="flex flex-col gap-3">
      {audioSrc ? (
        <audio controls preload="none" src={audioSrc} aria-label={label} className="w-full">
          {/* Not `default`: an <audio> draws no captions, so none is fetched until a player asks. */}
          {hasCaptions ? <track kind="captions" src={captionsSrc!} srcLang={lang} label={t("captions")} /> : null}
        </audio>
      ) : null}
      {children}
      <Words words={words} correctHref={correctHref ?? null} />
      {words.written ? (
        <figure className="flex flex-col gap-2" data-testid="written-beside">
          <figcaption className="text-sm font-medium">{t("writtenBeside")}</figcaption>
          <div className="words flex flex-col gap-2 leading-relaxed">
            {paragraphsOfText(words.written).map((paragraph, i) => (
              <p key={i} className="whitespace-pre-line">
                {paragraph}
              </p>
            ))}
          </div>
        </figure>
      ) : null}
    </div>
  );
}

function Words({ words, correctHref }: { words: WordsView; correctHref: string | null }) {
  const { t } = useTranslation("words");
  const text = words.transcript?.trim();
  if (words.status !== "done" || !text) {
    const state = words.status === "done" ? "none" : words.status;
    // Waiting on the server's setup is nothing a share link's listener can act on, nor needs to know.
    if (state === "waiting" && !correctHref) return null;
    return (
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted" data-testid="transcript">
        <p data-words-state={state}>{state === "waiting" ? <WordsComing /> : t(`status.${state}`)}</p>
        {correctHref && state !== "pending" ? (
          <a href={correctHref} className="link">
            {t("writeThem")}
          </a>
        ) : null}
      </div>
    );
  }
  return (
    <figure className="flex flex-col gap-2" data-testid="transcript">
      <figcaption className="text-sm font-medium">{t("heading")}</figcaption>
      <div className="words flex flex-col gap-2 leading-relaxed">
        {words.segments.length
          ? paragraphsOf(words.segments).map((paragraph) => (
              <p key={paragraph[0].start}>
                {paragraph.map((segment, i) => (
                  <span key={segment.start} data-start={segment.start} data-end={segment.end}>
                    {i ? " " : ""}
                    {segment.text}
                  </span>
                ))}
              </p>
            ))
          : paragraphsOfText(text).map((paragraph, i) => (
              <p key={i} className="whitespace-pre-line">
                {paragraph}
              </p>
            ))}
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted">
        {words.corrected ? (
          <p data-testid="words-corrected">
            {words.corrected.by
              ? t("correctedBy", { name: words.corrected.by, date: words.corrected.on })
              : t("correctedOn", { date: words.corrected.on })}
          </p>
        ) : null}
        {correctHref ? (
          <a href={correctHref} className="link">
            {t("correct")}
          </a>
        ) : null}
      </div>
      {words.heardAgain && correctHref ? (
        <p className="rounded-lg border border-line p-2 text-sm" data-testid="heard-again">
          {t("heardAgain.notice")}{" "}
          <a href={correctHref} className="link">
            {t("heardAgain.look")}
          </a>
        </p>
      ) : null}
    </figure>
  );
}
