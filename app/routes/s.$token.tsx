import { useTranslation } from "react-i18next";
import { useLoaderData } from "react-router";
import { data, type HeadersFunction } from "react-router";
import { AnswerWithWords } from "~/components/answer-words";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { getServerT, i18nServer } from "~/i18n/i18next.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { wordsOfHeardAnswer } from "~/models/captions.server";
import { answerForShareToken } from "~/models/share.server";
import { titleFromLoader } from "~/utils/meta";
import { standaloneScript } from "~/utils/standalone-scripts.server";

// A share link's page: public, no sign-in, no React (see app/root.tsx "standalone"); its only script is
// the follow-words island. It shows the question, the Storyteller's first name, a player and the
// answer's words; nothing else about anyone.
export const handle = { i18n: ["share", "words"], standalone: true };
export const meta = titleFromLoader;
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, context, params }: LoaderArgs) {
  const t = await getServerT(request, context, "share");
  const answer = await answerForShareToken(context, params.token!);
  if (!answer) {
    return data(
      {
        kind: "not-found" as const,
        title: `${t("notFoundTitle")} · ${context.config.APP_NAME}`,
        scripts: [] as string[],
      },
      { status: 404, headers: capabilityPageHeaders },
    );
  }
  return data(
    {
      kind: "answer" as const,
      title: `${t("title", { name: answer.first_name })} · ${context.config.APP_NAME}`,
      firstName: answer.first_name,
      prompt: answer.prompt_text,
      audioUrl: `/s/${params.token}/audio`,
      captionsUrl: `/s/${params.token}/captions.vtt`,
      words: await wordsOfHeardAnswer(context.db, answer.id),
      locale: await i18nServer.getLocale(request),
      // The words follow the voice: one small script, the page reads the same without it.
      scripts: [standaloneScript(context.config, "follow-words")],
    },
    { headers: capabilityPageHeaders },
  );
}

export default function SharedAnswer() {
  const { t } = useTranslation("share");
  const page = useLoaderData<typeof loader>();
  if (page.kind === "not-found") {
    return (
      <main id="main" className="record-page">
        <h1 className="text-3xl font-bold">{t("notFoundTitle")}</h1>
        <p>{t("notFound")}</p>
      </main>
    );
  }
  return (
    <main id="main" className="record-page">
      <p className="text-lg">{t("from", { name: page.firstName })}</p>
      <h1 className="rounded-xl border border-line bg-panel p-5 text-2xl leading-snug font-semibold">{page.prompt}</h1>
      <AnswerWithWords
        audioSrc={page.audioUrl}
        captionsSrc={page.captionsUrl}
        label={t("player", { name: page.firstName })}
        words={page.words}
        lang={page.locale}
        standalone
      />
      <p className="text-base text-muted">{t("about")}</p>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
