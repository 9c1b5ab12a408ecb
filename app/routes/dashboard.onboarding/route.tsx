import { useTranslation } from "react-i18next";
import { useActionData, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { readerLanguage } from "~/i18n/i18next.server";
import { newSubmissionId } from "~/models/form-submission.server";
import { getDraft } from "~/models/onboarding.server";
import { getPromptLibrary } from "~/models/prompt-library.server";
import { todayIn } from "~/models/storyteller.server";
import { formConstraints } from "~/utils/form-constraints.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";
import { storytellerFormLists } from "~/utils/storyteller-form.server";
import { zoneLabel } from "~/utils/time-zone-choices.server";
import type { Step } from "./schema";
import { submitStep } from "./server";
import { PromptsStepForm, ScheduleStepForm, WhoStepForm } from "./steps";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

const stepOf = (request: Request) =>
  Math.min(3, Math.max(1, Number(new URL(request.url).searchParams.get("step")) || 1)) as Step;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const step = stepOf(request);
  const draft = await getDraft(context.db, user.id);
  const language = draft.who?.language ?? user.language;
  // Places and countries in the reader's language (the library is in the Storyteller's).
  const reader = await readerLanguage(request);
  return {
    title: await pageTitle(request, context, "onboarding.title", "storytellers"),
    step,
    draft,
    library: step === 2 ? await getPromptLibrary(context.db, language, reader) : [],
    ...(step === 1 ? storytellerFormLists(request, reader) : { timeZones: [], phoneCountries: [], phoneCountry: "US" }),
    defaultTimeZone: user.language === "hi" ? "Asia/Kolkata" : "America/New_York",
    today: todayIn(draft.who?.timeZone ?? "UTC"),
    // Her time zone in words, in the reader's language ("Kolkata, India"), for the review.
    zonePlace: step === 3 && draft.who ? zoneLabel(draft.who.timeZone, reader) : null,
    submissionId: step === 3 ? newSubmissionId() : "",
    constraint: [formConstraints.storyteller, formConstraints.prompts, formConstraints.schedule][step - 1],
  };
}

export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  return submitStep[stepOf(request)]({ request, context, userId: user.id, formData: await readForm(request) });
}

export default function Onboarding() {
  const { t } = useTranslation("storytellers");
  const {
    step,
    draft,
    library,
    timeZones,
    phoneCountries,
    phoneCountry,
    defaultTimeZone,
    today,
    zonePlace,
    submissionId,
    constraint,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("onboarding.title")}</h1>
      <ol className="flex flex-wrap gap-2 text-sm" aria-label={t("onboarding.progress")}>
        {[1, 2, 3].map((n) => (
          <li
            key={n}
            aria-current={n === step ? "step" : undefined}
            className="rounded-full border border-line px-3 py-1 aria-[current=step]:bg-primary aria-[current=step]:text-white"
          >
            {t(`onboarding.steps.${n}`)}
          </li>
        ))}
      </ol>
      {step === 1 ? (
        <WhoStepForm
          draft={draft.who}
          timeZones={timeZones}
          phoneCountries={phoneCountries}
          phoneCountry={phoneCountry}
          defaultTimeZone={defaultTimeZone}
          constraint={constraint}
          lastResult={lastResult}
        />
      ) : null}
      {step === 2 ? (
        <PromptsStepForm draft={draft.prompts} library={library} constraint={constraint} lastResult={lastResult} />
      ) : null}
      {step === 3 ? (
        <ScheduleStepForm
          draft={draft}
          today={today}
          zonePlace={zonePlace ?? ""}
          submissionId={submissionId}
          constraint={constraint}
          lastResult={lastResult}
        />
      ) : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
