import { useTranslation } from "react-i18next";
import { Form, useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { ADD_GROUP_URL, AddGroupSteps } from "~/components/add-group-steps";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";
import type { Step } from "./schema";
import { stepPage, submitStep } from "./server";

export const handle = { i18n: ["groups", "storytellers"] };
export const meta = titleFromLoader;

const stepOf = (request: Request) =>
  Math.min(3, Math.max(1, Number(new URL(request.url).searchParams.get("step")) || 1)) as Step;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  return {
    title: await pageTitle(request, context, "new.title", "groups"),
    ...(await stepPage(context, user, stepOf(request), new URL(request.url).searchParams.has("more"))),
  };
}

export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  return submitStep[stepOf(request)]({ request, context, user, formData: await readForm(request) });
}

const actionFor = (step: number) => `${ADD_GROUP_URL}?step=${step}`;

export default function NewGroup() {
  const { t } = useTranslation("groups");
  const { title: _title, ...page } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused =
    actionData?.form && actionData.result ? { form: actionData.form, result: actionData.result } : undefined;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("new.title")}</h1>
      <AddGroupSteps page={page} refused={refused} Form={Form} actionFor={actionFor} idPrefix="" />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
