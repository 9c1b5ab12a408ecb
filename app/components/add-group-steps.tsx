import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { ComponentType, RefAttributes } from "react";
import { useTranslation } from "react-i18next";
import type { FetcherFormProps } from "react-router";
import { Field, FieldErrors, SelectField, SubmissionField } from "~/components/forms";
import { GroupDetailsFields } from "~/components/group-fields";
import { ScheduleFields, StorytellerFields } from "~/components/storyteller-fields";
import type { FormConstraint } from "~/utils/form-constraint";
import { AddGroupIntent as Intent, MAX_INVITATIONS_PER_POST } from "~/utils/group-choices";
import type { GroupDraft } from "~/utils/group-schema";
import type { PhoneCountry, ZoneChoice } from "~/utils/time-zones";

// Add Group's three steps, for its page (plain form posts) and its dialog (the same forms, posted by
// a fetcher to the same route). The server checks each post with the route's schema.ts and answers
// with its messages; the browser has only the fields' constraints (decision 026).

export const ADD_GROUP_URL = "/dashboard/groups/new";

export type AddGroupStep = 1 | 2 | 3;

/** What one step shows (the route's loader, or its action's answer to the dialog). */
export type AddGroupPage = {
  step: AddGroupStep;
  draft: GroupDraft;
  storytellers: { id: string; nickname: string; first_name: string }[];
  timeZones: ZoneChoice[];
  phoneCountries: PhoneCountry[];
  phoneCountry: string;
  defaultTimeZone: string;
  today: string;
  /** Blank address slots after the kept ones: one, or two after "Add another address". */
  extraSlots: number;
  /** The last step's one-time id (SubmissionField): a double click makes one group. */
  submissionId: string;
  /** Each form's field constraints (formConstraints, made on the server). */
  constraints: Record<AddGroupForm, FormConstraint>;
};

/** Which of the step's forms a refused post came from (step 2 has two). */
export type AddGroupForm = "details" | "pick" | "create" | "invite";
export type AddGroupRefusal = { form: AddGroupForm; result: SubmissionResult<string[]> };
/** What the route answers the dialog's posts (?dialog=1): the step to show now, and any refusal. */
export type AddGroupDialogReply = { page: AddGroupPage } & Partial<AddGroupRefusal>;

/** The form element the steps render: react-router's Form on the page, a fetcher's Form in the dialog. */
export type StepFormComponent = ComponentType<FetcherFormProps & RefAttributes<HTMLFormElement>>;

type StepProps = {
  Form: StepFormComponent;
  /** Where each step posts (the dialog adds &dialog=1). */
  actionFor: (step: AddGroupStep) => string;
  /** Keeps the forms' ids apart when the dialog opens over a page that shows them too. */
  idPrefix: string;
};
type Result = SubmissionResult<string[]> | undefined;
type StepFormProps = StepProps & { constraints: AddGroupPage["constraints"] };

/** The progress list and the current step's form(s). */
export function AddGroupSteps({
  page,
  refused,
  ...form
}: StepProps & { page: AddGroupPage; refused: AddGroupRefusal | undefined }) {
  const { t } = useTranslation("groups");
  const resultOf = (name: AddGroupForm) => (refused?.form === name ? refused.result : undefined);
  const { step, draft } = page;
  const steps = { ...form, constraints: page.constraints };
  return (
    <>
      <ol className="flex flex-wrap gap-2 text-sm" aria-label={t("new.progress")}>
        {([1, 2, 3] as const).map((n) => (
          <li
            key={n}
            aria-current={n === step ? "step" : undefined}
            className="rounded-full border border-line px-3 py-1 aria-[current=step]:bg-primary aria-[current=step]:text-white"
          >
            {t(`new.steps.${n}`)}
          </li>
        ))}
      </ol>
      {step === 1 ? <DetailsStepForm {...steps} draft={draft.details} lastResult={resultOf("details")} /> : null}
      {step === 2 ? (
        <StorytellerStep
          {...steps}
          draft={draft.storyteller}
          storytellers={page.storytellers}
          timeZones={page.timeZones}
          phoneCountries={page.phoneCountries}
          phoneCountry={page.phoneCountry}
          defaultTimeZone={page.defaultTimeZone}
          today={page.today}
          pickResult={resultOf("pick")}
          createResult={resultOf("create")}
        />
      ) : null}
      {step === 3 ? (
        <InviteStepForm
          {...steps}
          // A kept list or another blank slot (after "Add another address") starts the form afresh.
          key={`${(draft.emails ?? []).join(",")}|${page.extraSlots}`}
          draft={draft.emails}
          extraSlots={page.extraSlots}
          submissionId={page.submissionId}
          lastResult={resultOf("invite")}
        />
      ) : null}
    </>
  );
}

function BackButton() {
  const { t } = useTranslation("groups");
  // formNoValidate: going back never needs the current step to be valid.
  return (
    <button type="submit" name="intent" value={Intent.back} formNoValidate className="btn-secondary">
      {t("new.back")}
    </button>
  );
}

function DetailsStepForm({
  Form,
  actionFor,
  idPrefix,
  constraints,
  draft,
  lastResult,
}: StepFormProps & { draft?: GroupDraft["details"]; lastResult: Result }) {
  const { t } = useTranslation("groups");
  const [form, fields] = useForm({
    id: `${idPrefix}group-details`,
    lastResult,
    constraint: constraints.details,
    defaultValue: draft,
  });
  return (
    <Form method="post" action={actionFor(1)} {...getFormProps(form)} className="flex flex-col gap-5">
      <FieldErrors id={form.errorId} errors={form.errors} />
      <GroupDetailsFields fields={fields} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value={Intent.next} className="btn-primary">
          {t("new.next")}
        </button>
      </div>
    </Form>
  );
}

function StorytellerStep({
  Form,
  actionFor,
  idPrefix,
  constraints,
  draft,
  storytellers,
  timeZones,
  phoneCountries,
  phoneCountry,
  defaultTimeZone,
  today,
  pickResult,
  createResult,
}: StepFormProps & {
  draft?: GroupDraft["storyteller"];
  storytellers: AddGroupPage["storytellers"];
  timeZones: ZoneChoice[];
  phoneCountries: AddGroupPage["phoneCountries"];
  phoneCountry: string;
  defaultTimeZone: string;
  today: string;
  pickResult: Result;
  createResult: Result;
}) {
  const { t } = useTranslation("groups");
  const [pickForm, pickFields] = useForm({
    id: `${idPrefix}group-pick`,
    lastResult: pickResult,
    constraint: constraints.pick,
    defaultValue: draft && "storytellerId" in draft ? { storytellerId: draft.storytellerId } : undefined,
  });
  const [createForm, createFields] = useForm({
    id: `${idPrefix}group-create`,
    lastResult: createResult,
    constraint: constraints.create,
    defaultValue: {
      language: "en",
      deliveryMethod: "email",
      timeZone: defaultTimeZone,
      phoneCountry,
      firstPromptDate: today,
      frequency: "weekly",
      ...(draft && "newStoryteller" in draft ? draft.newStoryteller : {}),
    },
  });
  return (
    <div className="flex flex-col gap-8">
      {storytellers.length ? (
        <section aria-labelledby={`${idPrefix}pick-heading`} className="flex flex-col gap-4">
          <h2 id={`${idPrefix}pick-heading`} className="text-lg font-semibold">
            {t("new.pickHeading")}
          </h2>
          <Form method="post" action={actionFor(2)} {...getFormProps(pickForm)} className="flex flex-col gap-4">
            <SelectField
              label={t("fields.storyteller")}
              selectProps={getSelectProps(pickFields.storytellerId)}
              errors={pickFields.storytellerId.errors}
            >
              {storytellers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.nickname} ({s.first_name})
                </option>
              ))}
            </SelectField>
            <div className="flex flex-wrap gap-3">
              <BackButton />
              <button type="submit" name="intent" value={Intent.pick} className="btn-primary">
                {t("new.pick")}
              </button>
            </div>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby={`${idPrefix}create-heading`} className="flex flex-col gap-4">
        <h2 id={`${idPrefix}create-heading`} className="text-lg font-semibold">
          {storytellers.length ? t("new.createHeadingOr") : t("new.createHeading")}
        </h2>
        <Form
          method="post"
          action={actionFor(2)}
          {...getFormProps(createForm)}
          className="grid grid-cols-1 gap-5 min-[700px]:grid-cols-2"
        >
          <FieldErrors id={createForm.errorId} errors={createForm.errors} />
          <StorytellerFields
            fields={createFields}
            timeZones={timeZones}
            phoneCountries={phoneCountries}
            enterSubmits={{ name: "intent", value: Intent.create }}
          />
          <ScheduleFields fields={createFields} minDate={today} />
          <div className="flex gap-3 min-[700px]:col-span-2">
            <BackButton />
            <button type="submit" name="intent" value={Intent.create} className="btn-primary">
              {t("new.create")}
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}

function InviteStepForm({
  Form,
  actionFor,
  idPrefix,
  constraints,
  draft,
  extraSlots,
  submissionId,
  lastResult,
}: StepFormProps & { draft?: string[]; extraSlots: number; submissionId: string; lastResult: Result }) {
  const { t } = useTranslation("groups");
  const [form, fields] = useForm({
    id: `${idPrefix}group-invite`,
    lastResult,
    constraint: constraints.invite,
    // Never more slots than one post may invite, unless a refused post brought more back.
    defaultValue: {
      emails: [...(draft ?? []), ...Array<string>(extraSlots).fill("")].slice(
        0,
        Math.max(MAX_INVITATIONS_PER_POST, draft?.length ?? 0),
      ),
    },
  });
  const slots = fields.emails.getFieldList();
  return (
    <Form method="post" action={actionFor(3)} {...getFormProps(form)} className="flex flex-col gap-5">
      <p className="text-muted">{t("new.inviteIntro")}</p>
      <FieldErrors id={form.errorId} errors={form.errors} />
      <FieldErrors id={fields.emails.errorId} errors={fields.emails.errors} />
      <SubmissionField id={submissionId} />
      {slots.map((slot, index) => (
        <Field
          // conform's keys repeat when a refused post brings the list back; the name never does.
          key={`${slot.name}:${slot.key ?? ""}`}
          label={t("fields.inviteEmail", { number: index + 1 })}
          inputProps={{ ...getInputProps(slot, { type: "email" }), autoComplete: "off" }}
          errors={slot.errors}
        />
      ))}
      <div className="flex flex-wrap gap-3">
        <BackButton />
        {slots.length < MAX_INVITATIONS_PER_POST ? (
          <button type="submit" name="intent" value={Intent.more} className="btn-secondary">
            {t("new.more")}
          </button>
        ) : null}
        <button type="submit" name="intent" value={Intent.submit} className="btn-primary">
          {t("new.submit")}
        </button>
      </div>
    </Form>
  );
}
