import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { SessionUser } from "~/auth/session.server";
import {
  ADD_GROUP_URL,
  type AddGroupDialogReply,
  type AddGroupForm,
  type AddGroupPage,
  type AddGroupRefusal,
} from "~/components/add-group-steps";
import type { AppContext } from "~/context.server";
import { newSubmissionId, oncePerSubmission, type Once, submissionIdOf } from "~/models/form-submission.server";
import {
  checkInvitationEmails,
  createGroupFromDraft,
  getGroupDraft,
  groupableStorytellers,
  saveGroupDraftStep,
} from "~/models/group.server";
import { checkFirstPromptDate, checkStorytellerFields, todayIn } from "~/models/storyteller.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/services/toast.server";
import { formConstraints } from "~/utils/form-constraints.server";
import { MAX_INVITATIONS_PER_POST } from "~/utils/group-schema";
import { indexListField } from "~/utils/list-fields";
import { storytellerFormLists } from "~/utils/storyteller-form.server";
import { zoneSearchFirst } from "~/utils/time-zones";
import { Intent, type Step, stepSchemas } from "./schema";

// One handler per step of Add Group: each parses its step's post once, goes back, refuses it with
// conform's reply (naming the form that sent it), or keeps the answers; the last creates the group.
// The page's posts move on by redirect (?step=n). The dialog's (?dialog=1) are a fetcher's: they get
// the next step's page as data instead, so the dialog stays open; creating the group redirects both.

export const stepUrl = (step: number) => `${ADD_GROUP_URL}?step=${step}`;

/** What a step shows: the user's draft, and for step 2 their Storytellers and the time zones. */
export async function stepPage(
  context: AppContext,
  user: SessionUser,
  step: Step,
  more = false,
): Promise<AddGroupPage> {
  const draft = await getGroupDraft(context.db, user.id);
  const defaultTimeZone = user.language === "hi" ? "Asia/Kolkata" : "America/New_York";
  return {
    step,
    draft,
    storytellers: step === 2 ? await groupableStorytellers(context.db, user.id) : [],
    ...(step === 2
      ? storytellerFormLists(null, user.language)
      : { timeZones: [], phoneCountries: [], phoneCountry: "US" }),
    defaultTimeZone,
    today: todayIn(defaultTimeZone),
    extraSlots: more ? 2 : 1,
    submissionId: step === 3 ? newSubmissionId() : "",
    constraints: {
      details: formConstraints.groupDetails,
      pick: formConstraints.pickStoryteller,
      create: formConstraints.storytellerWithSchedule,
      invite: formConstraints.invitationEmails,
    },
  };
}

type StepArgs = { request: Request; context: AppContext; user: SessionUser; formData: FormData };

function replies({ request, context, user }: StepArgs, step: Step) {
  const dialog = new URL(request.url).searchParams.has("dialog");
  return {
    /** To another step (or this one again, with one more address slot). */
    go: async (to: Step, more = false) =>
      dialog
        ? data<AddGroupDialogReply>({ page: await stepPage(context, user, to, more) })
        : redirect(`${stepUrl(to)}${more ? "&more=1" : ""}`),
    /** The post is refused: the step again, with conform's reply for the form that sent it. */
    refuse: async (form: AddGroupForm, result: SubmissionResult<string[]>) =>
      dialog
        ? data<AddGroupDialogReply>({ page: await stepPage(context, user, step), form, result }, { status: 400 })
        : data<AddGroupRefusal>({ form, result }, { status: 400 }),
  };
}

async function details(args: StepArgs) {
  const { context, user, formData } = args;
  const { go, refuse } = replies(args, 1);
  const submission = parseWithZod(formData, { schema: stepSchemas[1] });
  if (submission.status !== "success") return refuse("details", submission.reply());
  const { intent: _next, ...details } = submission.value;
  await saveGroupDraftStep(context.db, user.id, "details", details);
  return go(2);
}

async function storyteller(args: StepArgs) {
  const { context, user, formData } = args;
  const { go, refuse } = replies(args, 2);
  const submission = parseWithZod(zoneSearchFirst(formData), { schema: stepSchemas[2] });
  const form = formData.get("intent") === Intent.pick ? "pick" : "create";
  if (submission.status !== "success") return refuse(form, submission.reply());
  const value = submission.value;
  if (value.intent === Intent.back) return go(1);
  if (value.intent === Intent.pick) {
    const mine = await groupableStorytellers(context.db, user.id);
    // The select offers only these: any other id is one the user may not see.
    if (!mine.some((s) => s.id === value.storytellerId)) throw new Response(null, { status: 404 });
    await saveGroupDraftStep(context.db, user.id, "storyteller", { storytellerId: value.storytellerId });
    return go(3);
  }
  const { intent: _create, ...newStoryteller } = value;
  const checked = checkStorytellerFields(newStoryteller, context.config);
  if (!checked.ok) return refuse("create", submission.reply({ fieldErrors: checked.fieldErrors }));
  const dateErrors = checkFirstPromptDate(newStoryteller);
  if (dateErrors) return refuse("create", submission.reply({ fieldErrors: dateErrors }));
  await saveGroupDraftStep(context.db, user.id, "storyteller", { newStoryteller });
  return go(3);
}

async function invite(args: StepArgs) {
  const { request, context, user, formData } = args;
  const { go, refuse } = replies(args, 3);
  const submission = parseWithZod(indexListField(formData, "emails"), { schema: stepSchemas[3] });
  if (submission.status !== "success") return refuse("invite", submission.reply());
  if (submission.value.intent === Intent.back) return go(2);
  const { intent, emails } = submission.value;
  // Another slot would take a post past the cap: said now, not when the group is made.
  if (intent === Intent.more && emails.length >= MAX_INVITATIONS_PER_POST)
    return refuse("invite", submission.reply({ fieldErrors: { emails: ["groups:errors.tooManyInvitations"] } }));
  const fieldErrors = await checkInvitationEmails(context.db, user, emails);
  if (Object.keys(fieldErrors).length) return refuse("invite", submission.reply({ fieldErrors }));
  if (intent === Intent.more) {
    await saveGroupDraftStep(context.db, user.id, "emails", emails);
    return go(3, true);
  }
  let once: Once<{ to: 1 | 2 } | { to: "created"; groupId: string }>;
  try {
    // A second post of this drawing of the form (a double click) follows the first to its group.
    once = await oncePerSubmission(
      context.db,
      user.id,
      submissionIdOf(formData),
      async (tx) => {
        await saveGroupDraftStep(tx, user.id, "emails", emails);
        const draft = await getGroupDraft(tx, user.id);
        if (!draft.details) return { to: 1 as const };
        if (!draft.storyteller) return { to: 2 as const };
        const created = await createGroupFromDraft({ ...context, db: tx }, user, {
          details: draft.details,
          storyteller: draft.storyteller,
          emails,
        });
        // A Storyteller step that no longer holds (theirs no more, or fields the server now refuses): back there.
        return created.ok ? { to: "created" as const, groupId: created.groupId } : { to: 2 as const };
      },
      (outcome) => (outcome.to === "created" ? `/dashboard/groups/${outcome.groupId}` : null),
    );
  } catch (error) {
    log.error({ module: "groups", err: error }, "could not create group");
    return redirectWithToast(request, context, stepUrl(3), { type: "error", key: "groups:toast.notCreated" });
  }
  const created = { type: "success", key: "groups:toast.created" } as const;
  if (once.repeat) return redirectWithToast(request, context, once.location, created);
  if (once.result.to !== "created") return go(once.result.to);
  return redirectWithToast(request, context, `/dashboard/groups/${once.result.groupId}`, created);
}

export const submitStep = { 1: details, 2: storyteller, 3: invite } satisfies Record<
  Step,
  (args: StepArgs) => Promise<unknown>
>;
