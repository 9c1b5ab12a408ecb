import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors } from "~/components/forms";
import { PromptPicker } from "~/components/prompt-picker";
import { promptsSchema } from "~/models/onboarding";
import { addPrompts } from "~/models/prompt.server";
import { getPromptLibrary } from "~/models/prompt-library.server";
import { getVisibleStoryteller } from "~/models/storyteller.server";
import { readFormData } from "~/utils/form-data.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { redirectWithToast } from "~/utils/toast.server";
import { idParam } from "~/utils/ids";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const storyteller = await getVisibleStoryteller(context.db, user.id, idParam(params.id));
  return {
    title: await pageTitle(request, context, "add.title", "storytellers"),
    storyteller: { id: storyteller.id, nickname: storyteller.nickname },
    library: await getPromptLibrary(context.db, storyteller.language),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const storytellerId = idParam(params.id);
  const submission = parseWithZod(await readFormData(request), { schema: promptsSchema });
  if (submission.status !== "success") return data({ errors: Object.values(submission.error ?? {}).flat().filter(Boolean) as string[] }, { status: 400 });
  const { libraryPromptIds, customPrompts } = submission.value;
  if (!libraryPromptIds.length && !customPrompts.length) return data({ errors: ["storytellers:toast.noneSelected"] }, { status: 400 });

  const storyteller = await getVisibleStoryteller(context.db, user.id, storytellerId);
  const library = libraryPromptIds.length
    ? await context.db.selectFrom("library_prompts").select(["id", "text_en", "text_hi"]).where("id", "in", libraryPromptIds).orderBy("category_id").orderBy("position").execute()
    : [];
  const items = [
    ...library.map((p) => ({ text: storyteller.language === "hi" ? p.text_hi : p.text_en, libraryPromptId: p.id })),
    ...customPrompts.map((text) => ({ text, libraryPromptId: null })),
  ];
  const back = `/dashboard/recipient/${storytellerId}`;
  try {
    const { added } = await addPrompts(context.db, user.id, storytellerId, items);
    if (added === 0) return data({ errors: ["storytellers:toast.alreadyScheduled"] }, { status: 400 });
    return redirectWithToast(request, context, back, { type: "success", key: "storytellers:toast.promptsAdded" });
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("[prompts] could not add:", (error as Error).message);
    return redirectWithToast(request, context, back, { type: "error", key: "storytellers:toast.promptsNotAdded" });
  }
}

/** A page (works without JavaScript): categories, many prompts at once, plus your own. */
export default function AddPrompts() {
  const { t } = useTranslation("storytellers");
  const { storyteller, library } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="flex max-w-3xl flex-col gap-5">
      <h1 className="text-2xl font-bold">{t("add.heading", { name: storyteller.nickname })}</h1>
      <Form method="post" className="flex flex-col gap-4">
        <FieldErrors id="add-prompts-errors" errors={actionData?.errors} />
        <PromptPicker library={library} />
        <div className="flex gap-3">
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
