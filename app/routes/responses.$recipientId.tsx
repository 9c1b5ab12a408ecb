import { useTranslation } from "react-i18next";
import { useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import { getStories } from "~/models/responses.server";
import { formatDay } from "~/utils/intl-formats";
import { titleFromLoader } from "~/utils/meta";
import { useRootData } from "~/utils/root-data";

export const handle = { i18n: ["responses"] };
export const meta = titleFromLoader;

/** A bare, printable page of a Storyteller's questions and answers (transcripts). */
export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const stories = await getStories(context.db, user, params.recipientId!);
  if (!stories) throw new Response(null, { status: 404 });
  const t = await getServerT(request, context, "responses");
  return { title: `${t("title", { name: stories.firstName })} · ${context.config.APP_NAME}`, ...stories };
}

export default function Responses() {
  const { t } = useTranslation("responses");
  const { firstName, stories } = useLoaderData<typeof loader>();
  const rootData = useRootData();
  const locale = rootData?.locale ?? "en";
  const timeZone = rootData?.timeZone ?? "UTC";
  return (
    <main id="main" className="mx-auto max-w-2xl px-5 py-8 print:max-w-none print:p-0">
      <h1 className="text-3xl font-bold">{t("title", { name: firstName })}</h1>
      <p className="mt-2 text-muted">{t("intro", { name: firstName })}</p>
      {stories.length === 0 ? <p className="mt-6">{t("empty")}</p> : null}
      <ol className="mt-6 flex flex-col gap-6">
        {stories.map((story) => (
          <li key={story.id} className="break-inside-avoid border-b border-line pb-5">
            <h2 className="text-xl font-semibold">{story.question}</h2>
            <p className="mt-1 text-sm text-muted">
              {story.state === "answered" || story.state === "private"
                ? `${t(story.state === "private" ? "private" : "answered", { date: formatDay(locale, story.answeredAt!, timeZone, "long") })}`
                : t(story.state)}
              {story.viaPhone ? <> · {t("viaPhone")}</> : null}
            </p>
            {story.state === "answered" ? (
              <p className="mt-3 whitespace-pre-line leading-relaxed">
                {story.transcript ?? (story.transcriptStatus === "pending" ? t("transcribing") : t("noTranscript"))}
              </p>
            ) : null}
          </li>
        ))}
      </ol>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
