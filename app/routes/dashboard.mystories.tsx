import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { getMyStories } from "~/models/responses.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { useRootData } from "~/utils/root-data";

export const handle = { i18n: ["responses"] };
export const meta = titleFromLoader;

/** The answers the signed-in user recorded as a Storyteller, with their own (even private) audio. */
export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  return {
    title: await pageTitle(request, context, "myStories.title", "responses"),
    stories: await getMyStories(context.db, user),
  };
}

export default function MyStories() {
  const { t } = useTranslation("responses");
  const { stories } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en";
  const date = new Intl.DateTimeFormat(locale === "hi" ? "hi-IN" : "en-US", { dateStyle: "medium" });
  return (
    <section className="flex max-w-3xl flex-col gap-4">
      <h1 className="text-2xl font-bold">{t("myStories.title")}</h1>
      <p className="text-muted">{t("myStories.intro")}</p>
      {stories.length === 0 ? <p>{t("myStories.empty")}</p> : null}
      <ul className="flex flex-col gap-3">
        {stories.map((story) => (
          <li key={story.id} className="flex flex-col gap-2 rounded-lg border border-line bg-panel p-4">
            <h2 className="font-semibold">{story.question}</h2>
            <p className="text-sm text-muted">
              {t("myStories.askedBy", { name: story.askerName, date: date.format(new Date(story.answeredAt)) })}
            </p>
            <audio
              controls
              preload="none"
              src={`/media/answer/${story.id}`}
              className="w-full"
              aria-label={story.question}
            />
            {story.isPrivate ? <p className="text-sm">{t("myStories.private")}</p> : null}
            <p className="whitespace-pre-line">
              {story.transcript ?? (story.transcriptStatus === "pending" ? t("transcribing") : t("noTranscript"))}
            </p>
            <Link to={`/responses/${story.storytellerId}`} className="link self-start text-sm">
              {t("myStories.printable", { name: story.askerName })}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
