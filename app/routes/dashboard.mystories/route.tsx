import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { readForm } from "~/utils/request-body.server";
import { useRootData } from "~/utils/root-data";
import { Intent } from "./intents";
import { OpenQuestions, RecordAStory } from "./record-a-story";
import { actionSchema } from "./schema";
import { myStoriesPage, performIntent, type Refusal } from "./server";
import { StoryList } from "./story-list";

export const handle = { i18n: ["stories", "storytellers", "words"] };
export const meta = titleFromLoader;

/**
 * My Stories: "Record a story" (a library question or a title of one's own), the questions waiting
 * for the user's answer, and their stories: own ones and answers they gave (decision 017).
 */
export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  return myStoriesPage(request, context, user);
}

export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await readForm(request), { schema: actionSchema });
  if (submission.status !== "success") {
    const intent = submission.payload.intent;
    // The two "Record a story" forms show what is wrong beside their field; the rest are buttons only.
    if (intent === Intent.recordLibrary || intent === Intent.recordTitle)
      return data({ form: intent, result: submission.reply() } satisfies Refusal, { status: 400 });
    throw new Response("Bad Request", { status: 400 });
  }
  const response = await performIntent(request, context, user, submission.value, (options) =>
    submission.reply(options),
  );
  if (!response) throw new Response(null, { status: 404 });
  return response;
}

export default function MyStories() {
  const { t } = useTranslation("stories");
  const { library, stories, drafts, questions } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en";
  return (
    <section className="flex max-w-3xl flex-col gap-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold">{t("title")}</h1>
        <p className="text-muted">{t("intro")}</p>
      </header>
      <OpenQuestions questions={questions} drafts={drafts} locale={locale} />
      <RecordAStory library={library} refusal={refusal ?? undefined} />
      <StoryList stories={stories} locale={locale} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
