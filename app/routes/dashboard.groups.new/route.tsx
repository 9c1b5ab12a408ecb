import { useTranslation } from "react-i18next";
import { useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { ActionArgs, LoaderArgs } from "~/context.server";
import { getGroupDraft, groupableStorytellers } from "~/models/group.server";
import { todayIn } from "~/models/onboarding.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";
import { timeZoneNames } from "~/utils/time-zones";
import type { Step } from "./schema";
import { submitStep } from "./server";
import { DetailsStepForm, InviteStepForm, StorytellerStep } from "./steps";

export const handle = { i18n: ["groups", "storytellers"] };
export const meta = titleFromLoader;

const stepOf = (request: Request) =>
  Math.min(3, Math.max(1, Number(new URL(request.url).searchParams.get("step")) || 1)) as Step;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const step = stepOf(request);
  const draft = await getGroupDraft(context.db, user.id);
  const defaultTimeZone = user.language === "hi" ? "Asia/Kolkata" : "America/New_York";
  return {
    title: await pageTitle(request, context, "new.title", "groups"),
    step,
    draft,
    storytellers: step === 2 ? await groupableStorytellers(context.db, user.id) : [],
    timeZones: step === 2 ? timeZoneNames() : [],
    defaultTimeZone,
    today: todayIn(defaultTimeZone),
    // "Add another address": one more blank slot than the addresses kept.
    extraSlots: new URL(request.url).searchParams.has("more") ? 2 : 1,
  };
}

export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  return submitStep[stepOf(request)]({ request, context, user, formData: await readForm(request) });
}

export default function NewGroup() {
  const { t } = useTranslation("groups");
  const { step, draft, storytellers, timeZones, defaultTimeZone, today, extraSlots } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "result" in actionData ? actionData : undefined;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("new.title")}</h1>
      <ol className="flex flex-wrap gap-2 text-sm" aria-label={t("new.progress")}>
        {[1, 2, 3].map((n) => (
          <li
            key={n}
            aria-current={n === step ? "step" : undefined}
            className="rounded-full border border-line px-3 py-1 aria-[current=step]:bg-primary aria-[current=step]:text-white"
          >
            {t(`new.steps.${n}`)}
          </li>
        ))}
      </ol>
      {step === 1 ? (
        <DetailsStepForm draft={draft.details} lastResult={refused?.form === "details" ? refused.result : undefined} />
      ) : null}
      {step === 2 ? (
        <StorytellerStep
          draft={draft.storyteller}
          storytellers={storytellers}
          timeZones={timeZones}
          defaultTimeZone={defaultTimeZone}
          today={today}
          pickResult={refused?.form === "pick" ? refused.result : undefined}
          createResult={refused?.form === "create" ? refused.result : undefined}
        />
      ) : null}
      {step === 3 ? (
        <InviteStepForm
          // A kept list or another blank slot (after "Add another address") starts the form afresh.
          key={`${(draft.emails ?? []).join(",")}|${extraSlots}`}
          draft={draft.emails}
          extraSlots={extraSlots}
          lastResult={refused?.form === "invite" ? refused.result : undefined}
        />
      ) : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
