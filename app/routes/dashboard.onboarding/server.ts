import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { AppContext } from "~/context.server";
import { oncePerSubmission, type Once, submissionIdOf } from "~/models/form-submission.server";
import { createStorytellerFromDraft, getDraft, saveDraftStep } from "~/models/onboarding.server";
import { checkLibraryPromptIds } from "~/models/prompt-library.server";
import { checkFirstPromptDate, checkStorytellerFields } from "~/models/storyteller.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/services/toast.server";
import { zoneSearchFirst } from "~/utils/time-zones";
import { Intent, type Step, stepSchemas } from "./schema";

// One handler per step of the wizard: each parses its step's post once, goes back, or refuses it
// with conform's reply, or keeps the answers (the last one creates the Storyteller).

type StepArgs = { request: Request; context: AppContext; userId: string; formData: FormData };

const stepUrl = (step: number) => `/dashboard/onboarding?step=${step}`;
const ADDED_URL = "/dashboard";
const refuse = (result: SubmissionResult<string[]>) => data({ result }, { status: 400 });

async function who({ context, userId, formData }: StepArgs) {
  const submission = parseWithZod(zoneSearchFirst(formData), { schema: stepSchemas[1] });
  if (submission.status !== "success") return refuse(submission.reply());
  if (submission.value.intent === Intent.back) return redirect(stepUrl(1));
  const { intent: _next, ...who } = submission.value;
  const checked = checkStorytellerFields(who, context.config);
  if (!checked.ok) return refuse(submission.reply({ fieldErrors: checked.fieldErrors }));
  await saveDraftStep(context.db, userId, "who", who);
  return redirect(stepUrl(2));
}

async function prompts({ context, userId, formData }: StepArgs) {
  const submission = parseWithZod(formData, { schema: stepSchemas[2] });
  if (submission.status !== "success") return refuse(submission.reply());
  if (submission.value.intent === Intent.back) return redirect(stepUrl(1));
  const { intent: _next, ...prompts } = submission.value;
  const unknown = await checkLibraryPromptIds(context.db, prompts.libraryPromptIds);
  if (unknown) return refuse(submission.reply({ fieldErrors: unknown }));
  await saveDraftStep(context.db, userId, "prompts", prompts);
  return redirect(stepUrl(3));
}

async function schedule({ request, context, userId, formData }: StepArgs) {
  const submission = parseWithZod(formData, { schema: stepSchemas[3] });
  if (submission.status !== "success") return refuse(submission.reply());
  if (submission.value.intent === Intent.back) return redirect(stepUrl(2));
  const { intent: _submit, ...schedule } = submission.value;
  let once: Once<{ to: "who" } | { to: "refused"; dateErrors: Record<string, string[]> } | { to: "added" }>;
  try {
    // A second post of this page (a double click) waits for the first and follows it to the dashboard.
    once = await oncePerSubmission(
      context.db,
      userId,
      submissionIdOf(formData),
      async (tx) => {
        const draft = await getDraft(tx, userId);
        if (!draft.who) return { to: "who" as const };
        const dateErrors = checkFirstPromptDate({ ...schedule, timeZone: draft.who.timeZone });
        if (dateErrors) return { to: "refused" as const, dateErrors };
        await saveDraftStep(tx, userId, "schedule", schedule);
        const created = await createStorytellerFromDraft({ db: tx, config: context.config }, userId, {
          who: draft.who,
          prompts: draft.prompts ?? { libraryPromptIds: [], customPrompts: [] },
          schedule,
        });
        // A first step saved before the server's checks applied to it: back there, where Next checks it again.
        return created.ok ? { to: "added" as const } : { to: "who" as const };
      },
      (outcome) => (outcome.to === "added" ? ADDED_URL : null),
    );
  } catch (error) {
    log.error({ module: "onboarding", err: error }, "could not add storyteller");
    return redirectWithToast(request, context, stepUrl(3), { type: "error", key: "storytellers:toast.notAdded" });
  }
  if (!once.repeat && once.result.to === "who") return redirect(stepUrl(1));
  if (!once.repeat && once.result.to === "refused")
    return refuse(submission.reply({ fieldErrors: once.result.dateErrors }));
  return redirectWithToast(request, context, once.repeat ? once.location : ADDED_URL, {
    type: "success",
    key: "storytellers:toast.added",
  });
}

export const submitStep = { 1: who, 2: prompts, 3: schedule } satisfies Record<
  Step,
  (args: StepArgs) => Promise<unknown>
>;
