import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors, replyErrors, SubmissionField } from "~/components/forms";
import { addBarClass, PickerSearchFields, PromptPicker } from "~/components/prompt-picker";
import { useQuestionLineMessages } from "~/components/question-errors";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { readerLanguage } from "~/i18n/i18next.server";
import { newSubmissionId, oncePerSubmission, type Once, submissionIdOf } from "~/models/form-submission.server";
import {
  checkLibraryPromptIds,
  getPickerLibrary,
  libraryQueueItems,
  tickedLibraryIds,
} from "~/models/prompt-library.server";
import { addPrompts } from "~/models/prompt.server";
import { getVisibleStoryteller } from "~/models/storyteller.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/services/toast.server";
import { idParam } from "~/utils/ids";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { promptsSchema } from "~/utils/prompt-schema";
import { readForm } from "~/utils/request-body.server";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

const notFound = () => new Response(null, { status: 404 });

export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  const storyteller = await getVisibleStoryteller(context.db, user.id, idParam(params.id));
  if (!storyteller) throw notFound();
  // ?q= searches the library (the search button posts the form by GET: it works without JavaScript),
  // carrying what was ticked and typed so far; longer than a question is no search.
  const url = new URL(request.url);
  const query = url.searchParams.has("clear") ? "" : (url.searchParams.get("q") ?? "").slice(0, 100);
  const picked = tickedLibraryIds(url.searchParams.getAll("libraryPromptIds"));
  return {
    title: await pageTitle(request, context, "add.title", "storytellers"),
    storyteller: { id: storyteller.id, nickname: storyteller.nickname },
    library: await getPickerLibrary(context.db, storyteller.id, storyteller.language, query, {
      picked,
      reader: await readerLanguage(request),
    }),
    submissionId: newSubmissionId(),
    customText: (url.searchParams.get("customPrompts") ?? "").slice(0, 30_000),
  };
}

/** Also the Add New Prompt dialog's action (add-prompt-dialog.tsx): its errors show as this page's do. */
export async function action({ request, context, params }: ActionArgs) {
  const user = await requireUser(request, context);
  const storytellerId = idParam(params.id);
  // The loader's guard, before the post is read: a page that is a 404 takes no post at all.
  const storyteller = await getVisibleStoryteller(context.db, user.id, storytellerId);
  if (!storyteller) throw notFound();
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: promptsSchema });
  // A refusal gives back what was ticked: without JavaScript the page is drawn anew, and its URL
  // holds only what was ticked before the last search.
  const refuse = async (result: SubmissionResult<string[]>) => {
    const ticked = tickedLibraryIds(formData.getAll("libraryPromptIds"));
    const { picked } = await getPickerLibrary(context.db, storyteller.id, storyteller.language, "", {
      picked: ticked,
      reader: await readerLanguage(request),
    });
    return data({ result, picked }, { status: 400 });
  };
  if (submission.status !== "success") return refuse(submission.reply());
  const { libraryPromptIds, customPrompts } = submission.value;
  if (!libraryPromptIds.length && !customPrompts.length)
    return refuse(submission.reply({ formErrors: ["storytellers:toast.noneSelected"] }));

  const unknown = await checkLibraryPromptIds(context.db, libraryPromptIds);
  if (unknown) return refuse(submission.reply({ fieldErrors: unknown }));
  const items = [
    ...(await libraryQueueItems(context.db, libraryPromptIds, storyteller.language)),
    ...customPrompts.map((text) => ({ text, libraryPromptId: null })),
  ];
  const back = `/dashboard/recipient/${storytellerId}`;
  let once: Once<Awaited<ReturnType<typeof addPrompts>>>;
  try {
    // A second post of this drawing of the form (a double click) follows the first back to the queue.
    once = await oncePerSubmission(
      context.db,
      user.id,
      submissionIdOf(formData),
      (tx) => addPrompts(tx, user.id, storytellerId, items),
      (result) => (result?.added ? back : null),
    );
  } catch (error) {
    log.error({ module: "prompts", err: error }, "could not add");
    return redirectWithToast(request, context, back, { type: "error", key: "storytellers:toast.promptsNotAdded" });
  }
  if (once.repeat) return redirectWithToast(request, context, once.location, successToast);
  if (!once.result) throw notFound();
  if (once.result.added === 0) return refuse(submission.reply({ formErrors: ["storytellers:toast.alreadyScheduled"] }));
  return redirectWithToast(request, context, back, successToast);
}

const successToast = { type: "success", key: "storytellers:toast.promptsAdded" } as const;

/** A page (works without JavaScript): categories, many prompts at once, plus your own. */
export default function AddPrompts() {
  const { t } = useTranslation("storytellers");
  const { storyteller, library, customText, submissionId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const here = `/dashboard/recipient/${storyteller.id}/prompts/new`;
  // A refused post keeps what he typed (without JavaScript the page is drawn anew from it).
  const typed = actionData?.result.initialValue?.customPrompts;
  const typedText = typeof typed === "string" ? typed : customText;
  const customErrors = useQuestionLineMessages(actionData?.result.error, "customPrompts", typedText);
  return (
    <section className="flex max-w-3xl flex-col gap-5">
      <h1 className="text-2xl font-bold">{t("add.heading", { name: storyteller.nickname })}</h1>
      <Form method="post" className="flex flex-col gap-4">
        <PickerSearchFields query={library.query} matches={library.matches} clearHref={here} getAction={here} />
        <SubmissionField id={submissionId} />
        <FieldErrors id="add-prompts-errors" errors={replyErrors(actionData?.result, "customPrompts")} />
        <PromptPicker
          library={library.categories}
          starter={library.starter}
          searching={Boolean(library.query)}
          picked={actionData?.picked ?? library.picked}
          customText={typedText}
          customErrors={customErrors}
        />
        <div className={addBarClass}>
          <button type="submit" className="btn-primary">
            {t("add.submit")}
          </button>
          <Link to={`/dashboard/recipient/${storyteller.id}`} className="btn-secondary">
            {t("view.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
