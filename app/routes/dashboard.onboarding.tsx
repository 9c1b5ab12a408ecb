import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/auth/session.server";
import { inTransaction } from "../../db/client";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PromptsStepForm, ScheduleStepForm, WhoStepForm } from "~/components/onboarding-steps";
import { promptsSchema, scheduleSchema, whoSchema } from "~/models/onboarding";
import { createStorytellerFromDraft, getDraft, isTimeZone, saveDraftStep, todayIn } from "~/models/onboarding.server";
import { getPromptLibrary } from "~/models/prompt-library.server";
import { requestSmsConsent } from "~/models/sms-consent.server";
import { readFormData } from "~/utils/form-data.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { usOrCanadianE164 } from "~/utils/phone.server";
import { timeZoneNames } from "~/utils/time-zones";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

const stepOf = (request: Request) => Math.min(3, Math.max(1, Number(new URL(request.url).searchParams.get("step")) || 1));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const step = stepOf(request);
  const draft = await getDraft(context.db, user.id);
  const language = draft.who?.language ?? user.language;
  return {
    title: await pageTitle(request, context, "onboarding.title", "storytellers"),
    step,
    draft,
    library: step === 2 ? await getPromptLibrary(context.db, language) : [],
    timeZones: step === 1 ? timeZoneNames() : [],
    defaultTimeZone: user.language === "hi" ? "Asia/Kolkata" : "America/New_York",
    today: todayIn(draft.who?.timeZone ?? "UTC"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const step = stepOf(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent === "back") return redirect(`/dashboard/onboarding?step=${Math.max(1, step - 1)}`);

  if (step === 1) {
    const submission = parseWithZod(formData, { schema: whoSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const who = submission.value;
    const fieldErrors: Record<string, string[]> = {};
    if (who.phone && !usOrCanadianE164(who.phone)) fieldErrors.phone = ["storytellers:errors.phoneNotUsCa"];
    if (!isTimeZone(who.timeZone)) fieldErrors.timeZone = ["storytellers:errors.timeZoneInvalid"];
    if (Object.keys(fieldErrors).length) return data({ result: submission.reply({ fieldErrors }) }, { status: 400 });
    await saveDraftStep(context.db, user.id, "who", who);
    return redirect("/dashboard/onboarding?step=2");
  }
  if (step === 2) {
    const submission = parseWithZod(formData, { schema: promptsSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    await saveDraftStep(context.db, user.id, "prompts", submission.value);
    return redirect("/dashboard/onboarding?step=3");
  }

  const submission = parseWithZod(formData, { schema: scheduleSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const draft = await getDraft(context.db, user.id);
  if (!draft.who) return redirect("/dashboard/onboarding?step=1");
  if (submission.value.firstPromptDate < todayIn(draft.who.timeZone)) {
    return data({ result: submission.reply({ fieldErrors: { firstPromptDate: ["storytellers:errors.dateInPast"] } }) }, { status: 400 });
  }
  await saveDraftStep(context.db, user.id, "schedule", submission.value);
  try {
    const phoneE164 = draft.who.phone ? usOrCanadianE164(draft.who.phone) : null;
    await inTransaction(context.db, async (tx) => {
      const storytellerId = await createStorytellerFromDraft(tx, user.id, {
        who: { ...draft.who!, phoneE164 },
        prompts: draft.prompts ?? { libraryPromptIds: [], customPrompts: [] },
        schedule: submission.value,
      });
      await requestSmsConsent(tx, context.config, storytellerId);
    });
  } catch (error) {
    console.error("[onboarding] could not add storyteller:", (error as Error).message);
    return redirectWithToast(request, context, "/dashboard/onboarding?step=3", { type: "error", key: "storytellers:toast.notAdded" });
  }
  return redirectWithToast(request, context, "/dashboard", { type: "success", key: "storytellers:toast.added" });
}

export default function Onboarding() {
  const { t } = useTranslation("storytellers");
  const { step, draft, library, timeZones, defaultTimeZone, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("onboarding.title")}</h1>
      <ol className="flex gap-2 text-sm" aria-label={t("onboarding.progress")}>
        {[1, 2, 3].map((n) => (
          <li key={n} aria-current={n === step ? "step" : undefined} className="rounded-full border border-line px-3 py-1 aria-[current=step]:bg-primary aria-[current=step]:text-white">
            {t(`onboarding.steps.${n}`)}
          </li>
        ))}
      </ol>
      {step === 1 ? <WhoStepForm draft={draft.who} timeZones={timeZones} defaultTimeZone={defaultTimeZone} lastResult={lastResult} /> : null}
      {step === 2 ? <PromptsStepForm draft={draft.prompts} library={library} lastResult={lastResult} /> : null}
      {step === 3 ? <ScheduleStepForm draft={draft} today={today} lastResult={lastResult} /> : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
