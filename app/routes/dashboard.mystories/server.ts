import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "react-router";
import type { SessionUser } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { deleteMyStory, getMyStories, setStoryPrivacy, startOwnStory } from "~/models/my-stories.server";
import { getPromptLibrary } from "~/models/prompt-library.server";
import { wordsView } from "~/models/transcript-edit.server";
import { redirectWithToast } from "~/services/toast.server";
import { readerTimeZone } from "~/utils/intl-formats";
import { pageTitle } from "~/utils/page-title.server";
import { type ActionInput, Intent, recordingPath } from "./schema";

export async function myStoriesPage(request: Request, context: AppContext, user: SessionUser) {
  const [title, library, mine, locale] = await Promise.all([
    pageTitle(request, context, "title", "stories"),
    getPromptLibrary(context.db, user.language),
    getMyStories(context.db, user),
    i18nServer.getLocale(request),
  ]);
  const stories = mine.stories.map(({ words, ...story }) => ({
    ...story,
    words: wordsView(words, locale, readerTimeZone(user)),
  }));
  return { title, library, ...mine, stories };
}

/** Which of the page's forms a refusal goes back to, with conform's reply. */
export type Refusal = { form: typeof Intent.recordLibrary | typeof Intent.recordTitle; result: SubmissionResult };

type Reply = (options?: { fieldErrors?: Record<string, string[]> }) => SubmissionResult;

/**
 * Does what the button asked. Null when the story is not one this user may change (the route answers
 * 404); otherwise the response: the recording page for a new story, or back here with a toast.
 */
export async function performIntent(
  request: Request,
  context: AppContext,
  user: SessionUser,
  input: ActionInput,
  reply: Reply,
) {
  const toast = (key: string) =>
    redirectWithToast(request, context, "/dashboard/mystories", { type: "success", key: `stories:toast.${key}` });
  switch (input.intent) {
    case Intent.recordLibrary:
    case Intent.recordTitle: {
      const started = await startOwnStory(
        context.db,
        user,
        input.intent === Intent.recordLibrary ? { libraryPromptId: input.libraryPromptId } : { title: input.title },
      );
      if (!started.ok)
        return data({ form: input.intent, result: reply({ fieldErrors: started.fieldErrors }) } satisfies Refusal, {
          status: 400,
        });
      // No toast: the recording page is served without React and shows none.
      return redirect(recordingPath(started.promptId));
    }
    case Intent.privacy: {
      const isPrivate = input.private === "1";
      if (!(await setStoryPrivacy(context.db, user, input.answerId, isPrivate))) return null;
      return toast(isPrivate ? "madePrivate" : "madeShared");
    }
    case Intent.delete:
      return (await deleteMyStory(context, user, input.promptId)) === "deleted" ? toast("deleted") : null;
  }
}
