import { useTranslation } from "react-i18next";
import { data, type HeadersFunction, useLoaderData } from "react-router";
import { AnswerWithWords } from "~/components/answer-words";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { getServerT, i18nServer } from "~/i18n/i18next.server";
import { capabilityPageHeaders } from "~/models/capability-links.server";
import { wordsOfHeardAnswer } from "~/models/captions.server";
import { answerForListenToken } from "~/models/keepsake.server";
import { titleFromLoader } from "~/utils/meta";
import { standaloneScript } from "~/utils/standalone-scripts.server";

// A book's QR code opens this page (decision 023): public, no sign-in, no React (only the follow-words island), like a share
// link's. A stopped link gets a kind page (404), never an error.
export const handle = { i18n: ["keep", "words"], standalone: true };
export const meta = titleFromLoader;
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, context, params }: LoaderArgs) {
  const t = await getServerT(request, context, "keep");
  const answer = await answerForListenToken(context, params.token!);
  if (!answer) {
    return data(
      {
        kind: "gone" as const,
        title: `${t("listen.goneTitle")} · ${context.config.APP_NAME}`,
        scripts: [] as string[],
      },
      { status: 404, headers: capabilityPageHeaders },
    );
  }
  return data(
    {
      kind: "answer" as const,
      title: `${t("listen.title", { name: answer.first_name })} · ${context.config.APP_NAME}`,
      firstName: answer.first_name,
      prompt: answer.prompt_text,
      audioUrl: `/l/${params.token}/audio`,
      captionsUrl: `/l/${params.token}/captions.vtt`,
      words: await wordsOfHeardAnswer(context.db, answer.id),
      locale: await i18nServer.getLocale(request),
      // The words follow the voice: one small script, the page reads the same without it.
      scripts: [standaloneScript(context.config, "follow-words")],
    },
    { headers: capabilityPageHeaders },
  );
}

export default function ListenPage() {
  const { t } = useTranslation("keep");
  const page = useLoaderData<typeof loader>();
  if (page.kind === "gone") {
    return (
      <main id="main" className="record-page">
        <h1 className="text-3xl font-bold">{t("listen.goneTitle")}</h1>
        <p className="text-lg">{t("listen.gone")}</p>
      </main>
    );
  }
  return (
    <main id="main" className="record-page">
      <p className="text-lg">{t("listen.from", { name: page.firstName })}</p>
      <h1 className="rounded-xl border border-line bg-panel p-5 text-2xl leading-snug font-semibold">{page.prompt}</h1>
      <AnswerWithWords
        audioSrc={page.audioUrl}
        captionsSrc={page.captionsUrl}
        label={t("listen.player", { name: page.firstName })}
        words={page.words}
        lang={page.locale}
        standalone
      />
      <p className="text-base text-muted">{t("listen.about")}</p>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
