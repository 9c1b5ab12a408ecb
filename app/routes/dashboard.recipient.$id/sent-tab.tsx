import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useFetcher, useNavigate, useSearchParams } from "react-router";
import { AnswerWithWords } from "~/components/answer-words";
import { useTimeForYou } from "~/components/time-zone-chooser";
import { ownReasonKey } from "~/utils/delivery-reasons";
import { formatDay, formatLength, herTime } from "~/utils/intl-formats";
import { useRootData } from "~/utils/root-data";
import type { WordsView } from "~/utils/words";
import { Intent } from "./intents";

const noWords: WordsView = { status: "pending", transcript: null, segments: [], corrected: null, heardAgain: false };

type SentPrompt = {
  id: string;
  text: string;
  sent_at: Date | string | null;
  skipped_at: Date | string | null;
  rerecord_requested_at?: Date | string | null;
  answer_id: string | null;
  is_private: boolean | null;
  /** The answer's words (null for a private answer, whose words stay with the Storyteller). */
  words?: WordsView | null;
  share_url?: string | null;
  delivery_status: string | null;
  delivery_error: string | null;
  /** When a send not yet made is due (quiet hours hold a text until 08:00 there). */
  delivery_due?: Date | string | null;
  via_phone?: boolean | null;
  duration_ms?: number | null;
  /** Answering by phone: the number to call and this prompt's code (while it waits for an answer). */
  call_in?: { number: string; code: string } | null;
};

/**
 * The Sent tab: each sent prompt with its date and whether it was answered, skipped or not
 * answered. An answer (unless private) gets a player, its transcript and its actions; all of them
 * are plain links and form posts, and JavaScript only adds the share sheet or copying the link.
 */
export function SentPrompts({
  prompts,
  locale,
  storyteller,
  storytellerId,
  canManage = false,
}: {
  prompts: SentPrompt[];
  locale: string;
  /** Whose questions these are: a waiting one says when it reaches her, her time. */
  storyteller: { nickname: string; time_zone: string };
  storytellerId: string;
  canManage?: boolean;
}) {
  const { t } = useTranslation("storytellers");
  const { t: tPhone } = useTranslation("phone");
  const rootData = useRootData();
  if (!prompts.length) return <p className="text-muted">{t("view.nothingSent")}</p>;
  const timeZone = rootData?.timeZone ?? "UTC";
  return (
    <ul className="flex flex-col gap-2">
      {prompts.map((prompt) => {
        const status = prompt.answer_id
          ? prompt.is_private
            ? "answeredPrivate"
            : "answered"
          : prompt.skipped_at
            ? "skipped"
            : "notAnswered";
        return (
          <li
            key={prompt.id}
            id={`prompt-${prompt.id}`}
            className="rounded-lg border border-line bg-panel p-3"
            data-testid="sent-prompt"
          >
            <p>{prompt.text}</p>
            {!prompt.sent_at && prompt.delivery_due ? (
              <Waiting at={prompt.delivery_due} storyteller={storyteller} locale={locale} />
            ) : null}
            <p hidden={!prompt.sent_at} className="mt-1 text-sm text-muted">
              {prompt.sent_at ? formatDay(locale, prompt.sent_at, timeZone) : null} · {t(`view.status.${status}`)}
              {prompt.answer_id && prompt.via_phone ? <> · {tPhone("viaPhone")}</> : null}
              {prompt.answer_id && !prompt.is_private && prompt.duration_ms ? (
                <> · {t("answers.length", { length: clockLength(prompt.duration_ms) })}</>
              ) : null}
            </p>
            {prompt.call_in ? (
              <p className="mt-1 text-sm" data-testid="call-in">
                <span className="font-medium">{tPhone("callIn.label")}:</span>{" "}
                {tPhone("callIn.detail", { number: prompt.call_in.number, code: prompt.call_in.code })}
              </p>
            ) : null}
            {prompt.delivery_status === "failed" ? (
              <p className="mt-1 text-sm text-danger">
                {t("delivery.statusFailed", {
                  // Our own reasons in the owner's language; a provider's own wording as it came.
                  reason: ownReasonKey(prompt.delivery_error)
                    ? t(`delivery.${ownReasonKey(prompt.delivery_error)}`)
                    : (prompt.delivery_error ?? ""),
                })}
              </p>
            ) : prompt.delivery_status === "sending" ? (
              <p className="mt-1 text-sm text-muted">{t("delivery.statusSending")}</p>
            ) : null}
            {prompt.rerecord_requested_at ? (
              <p className="mt-1 text-sm text-muted">{t("answers.rerecordPending")}</p>
            ) : null}
            {prompt.answer_id && !prompt.is_private ? (
              <AnswerPanel
                answerId={prompt.answer_id}
                prompt={prompt}
                canManage={canManage}
                locale={locale}
                back={`/dashboard/recipient/${storytellerId}?sent=true#prompt-${prompt.id}`}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** A question on its way: when it will reach her, her time, and (with JavaScript) the reader's. */
function Waiting({
  at,
  storyteller,
  locale,
}: {
  at: Date | string;
  storyteller: { nickname: string; time_zone: string };
  locale: string;
}) {
  const { t } = useTranslation("storytellers");
  const yourTime = useTimeForYou(at, locale);
  const values = { name: storyteller.nickname, time: herTime(at, storyteller.time_zone, locale), yourTime };
  return (
    <p className="mt-1 text-sm" data-testid="waiting">
      <span className="font-medium">{t("view.status.waiting")}:</span>{" "}
      {yourTime ? t("delivery.reachesAtForYou", values) : t("delivery.reachesAt", values)}
    </p>
  );
}

function AnswerPanel({
  answerId,
  prompt,
  canManage,
  locale,
  back,
}: {
  answerId: string;
  prompt: SentPrompt;
  canManage: boolean;
  locale: string;
  /** Where correcting the words comes back to. */
  back: string;
}) {
  const { t } = useTranslation("storytellers");
  // A written answer (a reply by email) has words only: nothing to play, download or share yet.
  const recorded = prompt.duration_ms != null;
  return (
    <div className="mt-3 flex flex-col gap-3" data-testid="answer">
      <AnswerWithWords
        audioSrc={recorded ? `/media/answer/${answerId}` : null}
        captionsSrc={`/media/answer/${answerId}/captions.vtt`}
        label={t("answers.player", { prompt: prompt.text })}
        words={prompt.words ?? noWords}
        lang={locale}
        // Owner and collaborators alike may correct the words (everyone who sees this tab).
        correctHref={`/dashboard/answers/${answerId}/words?from=${encodeURIComponent(back)}`}
      />
      <div className="flex flex-wrap items-start gap-2">
        {recorded ? (
          <>
            <ShareControl answerId={answerId} shareUrl={prompt.share_url ?? null} />
            <a href={`/media/answer/${answerId}?download=1`} download className="btn-secondary">
              {t("answers.download")}
            </a>
          </>
        ) : null}
        {canManage ? (
          <>
            <ConfirmedAnswerAction
              answerId={answerId}
              promptId={prompt.id}
              intent={Intent.answerRerecord}
              name="rerecord"
            />
            <ConfirmedAnswerAction
              answerId={answerId}
              promptId={prompt.id}
              intent={Intent.answerDelete}
              name="delete"
              danger
            />
          </>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Share: the post makes (or reuses) the answer's link and the page shows it to copy. With
 * JavaScript the same button opens the phone's share sheet, or copies the link where there is none.
 */
function ShareControl({ answerId, shareUrl }: { answerId: string; shareUrl: string | null }) {
  const { t } = useTranslation("storytellers");
  const fetcher = useFetcher<{ shareUrl?: string }>();
  const [status, setStatus] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const waitingForLink = useRef(false);
  // The page's data is the truth (after Stop sharing there is no link, whatever the fetcher got before).
  const url = shareUrl;
  const inputId = `share-link-${answerId}`;

  const deliver = useCallback(
    async (link: string) => {
      setStatus("");
      if (typeof navigator.share === "function") {
        try {
          await navigator.share({ url: link });
          return;
        } catch (error) {
          // Closing the share sheet is a choice, not a failure.
          if ((error as DOMException).name === "AbortError") return;
        }
      }
      try {
        await navigator.clipboard.writeText(link);
        setStatus(t("answers.copied"));
      } catch {
        input.current?.select();
        setStatus(t("answers.copyYourself"));
      }
    },
    [t],
  );

  useEffect(() => {
    if (waitingForLink.current && fetcher.state === "idle" && fetcher.data?.shareUrl) {
      waitingForLink.current = false;
      void deliver(fetcher.data.shareUrl);
    }
  }, [fetcher.state, fetcher.data, deliver]);

  // In the row of actions: the button in place, the link and the status on their own line below it.
  return (
    <>
      <Form
        method="post"
        onSubmit={(event) => {
          // Only runs with JavaScript; without it the form posts and the page shows the link.
          event.preventDefault();
          if (url) return void deliver(url);
          waitingForLink.current = true;
          fetcher.submit({ intent: Intent.answerShare, answerId, js: "1" }, { method: "post" });
        }}
      >
        <input type="hidden" name="answerId" value={answerId} />
        <button
          type="submit"
          name="intent"
          value={Intent.answerShare}
          className="btn-secondary"
          disabled={fetcher.state !== "idle"}
        >
          {t("answers.share")}
        </button>
      </Form>
      {url ? (
        <div className="order-last flex basis-full flex-col items-start gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            {t("answers.shareLink")}
          </label>
          <input
            ref={input}
            id={inputId}
            type="url"
            readOnly
            value={url}
            className="input w-full max-w-xl text-sm"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Form method="post">
            <input type="hidden" name="answerId" value={answerId} />
            <button type="submit" name="intent" value={Intent.answerUnshare} className="btn-quiet underline">
              {t("answers.stopSharing")}
            </button>
          </Form>
        </div>
      ) : null}
      <p role="status" className="order-last basis-full text-sm">
        {status}
      </p>
    </>
  );
}

/** 83 000 ms → "1:23": a recording's length as a player shows it. */
const clockLength = (ms: number) => formatLength(Math.round(ms / 1000));

/**
 * Delete and Re-record: a button-like link that opens the confirmation in place, under the row of
 * actions (?answer=…&confirm=…; the anchor brings a page without JavaScript back to it, and with
 * JavaScript the page does not move); done only with the box ticked (the browser insists, and so
 * does the server).
 */
function ConfirmedAnswerAction({
  answerId,
  promptId,
  intent,
  name,
  danger = false,
}: {
  answerId: string;
  promptId: string;
  intent: typeof Intent.answerDelete | typeof Intent.answerRerecord;
  name: "delete" | "rerecord";
  danger?: boolean;
}) {
  const { t } = useTranslation("storytellers");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const checkboxId = `${name}-confirm-${answerId}`;
  const open = params.get("answer") === answerId && params.get("confirm") === name;
  const inPlace = (search: string) => ({
    to: `${search}#prompt-${promptId}`,
    preventScrollReset: true,
    onClick: (event: React.MouseEvent<HTMLAnchorElement>) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      void navigate(search, { preventScrollReset: true });
    },
  });
  return (
    <>
      <Link
        {...inPlace(open ? "?sent=true" : `?sent=true&answer=${answerId}&confirm=${name}`)}
        className="btn-secondary"
        aria-expanded={open}
      >
        {t(`answers.${name}.open`)}
      </Link>
      {open ? (
        <Form
          method="post"
          preventScrollReset
          className="order-last flex basis-full flex-col gap-2 rounded-lg border border-line p-3"
          data-testid={`confirm-${name}`}
        >
          <input type="hidden" name="answerId" value={answerId} />
          <p>{t(`answers.${name}.explain`)}</p>
          <div className="flex items-start gap-2">
            <input type="checkbox" id={checkboxId} name="confirm" required className="mt-1 size-5" />
            <label htmlFor={checkboxId}>{t(`answers.${name}.confirm`)}</label>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value={intent} className={danger ? "btn-danger" : "btn-primary"}>
              {t(`answers.${name}.submit`)}
            </button>
            <Link {...inPlace("?sent=true")} className="btn-secondary">
              {t("view.cancel")}
            </Link>
          </div>
        </Form>
      ) : null}
    </>
  );
}
