import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { SessionUser } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import {
  checkInvitationEmails,
  createGroupFromDraft,
  getGroupDraft,
  groupableStorytellers,
  saveGroupDraftStep,
} from "~/models/group.server";
import { todayIn } from "~/models/onboarding.server";
import { checkStorytellerFields } from "~/models/storyteller.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/utils/toast.server";
import { Intent, type Step, stepSchemas } from "./schema";

// One handler per step of Add Group: each parses its step's post once, goes back, refuses it with
// conform's reply (naming the form that sent it), or keeps the answers; the last creates the group.

type StepArgs = { request: Request; context: AppContext; user: SessionUser; formData: FormData };
export type StepForm = "details" | "pick" | "create" | "invite";

export const stepUrl = (step: number) => `/dashboard/groups/new?step=${step}`;
const refuse = (form: StepForm, result: SubmissionResult<string[]>) => data({ form, result }, { status: 400 });

async function details({ context, user, formData }: StepArgs) {
  const submission = parseWithZod(formData, { schema: stepSchemas[1] });
  if (submission.status !== "success") return refuse("details", submission.reply());
  const { intent: _next, ...details } = submission.value;
  await saveGroupDraftStep(context.db, user.id, "details", details);
  return redirect(stepUrl(2));
}

async function storyteller({ context, user, formData }: StepArgs) {
  const submission = parseWithZod(formData, { schema: stepSchemas[2] });
  const form = formData.get("intent") === Intent.pick ? "pick" : "create";
  if (submission.status !== "success") return refuse(form, submission.reply());
  const value = submission.value;
  if (value.intent === Intent.back) return redirect(stepUrl(1));
  if (value.intent === Intent.pick) {
    const mine = await groupableStorytellers(context.db, user.id);
    // The select offers only these: any other id is one the user may not see.
    if (!mine.some((s) => s.id === value.storytellerId)) throw new Response(null, { status: 404 });
    await saveGroupDraftStep(context.db, user.id, "storyteller", { storytellerId: value.storytellerId });
    return redirect(stepUrl(3));
  }
  const { intent: _create, ...newStoryteller } = value;
  const checked = checkStorytellerFields(newStoryteller);
  if (!checked.ok) return refuse("create", submission.reply({ fieldErrors: checked.fieldErrors }));
  if (newStoryteller.firstPromptDate < todayIn(newStoryteller.timeZone))
    return refuse("create", submission.reply({ fieldErrors: { firstPromptDate: ["storytellers:errors.dateInPast"] } }));
  await saveGroupDraftStep(context.db, user.id, "storyteller", { newStoryteller });
  return redirect(stepUrl(3));
}

async function invite({ request, context, user, formData }: StepArgs) {
  const submission = parseWithZod(formData, { schema: stepSchemas[3] });
  if (submission.status !== "success") return refuse("invite", submission.reply());
  if (submission.value.intent === Intent.back) return redirect(stepUrl(2));
  const { intent, emails } = submission.value;
  const fieldErrors = await checkInvitationEmails(context.db, user, emails);
  if (Object.keys(fieldErrors).length) return refuse("invite", submission.reply({ fieldErrors }));
  await saveGroupDraftStep(context.db, user.id, "emails", emails);
  if (intent === Intent.more) return redirect(`${stepUrl(3)}&more=1`);

  const draft = await getGroupDraft(context.db, user.id);
  if (!draft.details) return redirect(stepUrl(1));
  if (!draft.storyteller) return redirect(stepUrl(2));
  let created: Awaited<ReturnType<typeof createGroupFromDraft>>;
  try {
    created = await createGroupFromDraft(context, user, {
      details: draft.details,
      storyteller: draft.storyteller,
      emails,
    });
  } catch (error) {
    log.error({ module: "groups", err: error }, "could not create group");
    return redirectWithToast(request, context, stepUrl(3), { type: "error", key: "groups:toast.notCreated" });
  }
  // A Storyteller step that no longer holds (theirs no more, or fields the server now refuses): back there.
  if (!created.ok) return redirect(stepUrl(2));
  return redirectWithToast(request, context, `/dashboard/groups/${created.groupId}`, {
    type: "success",
    key: "groups:toast.created",
  });
}

export const submitStep = { 1: details, 2: storyteller, 3: invite } satisfies Record<
  Step,
  (args: StepArgs) => Promise<unknown>
>;
