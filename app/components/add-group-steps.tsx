import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Field, FieldErrors, SelectField } from "~/components/forms";
import { GroupDetailsFields } from "~/components/group-fields";
import { ScheduleFields, StorytellerFields } from "~/components/storyteller-fields";
import { groupDetailsSchema, type GroupDetailsInput, invitationEmailsSchema } from "~/utils/group-schema";
import { createSchema, Intent, pickSchema } from "./schema";

// Add Group's three steps. In the browser each form checks its fields with the schema the server
// checks them with (./schema.ts wraps the same ones with the buttons' intents).

type Result = SubmissionResult<string[]> | undefined;
type StorytellerChoice = { storytellerId: string } | { newStoryteller: Record<string, string> };

function BackButton() {
  const { t } = useTranslation("groups");
  // formNoValidate: going back never needs the current step to be valid.
  return (
    <button type="submit" name="intent" value={Intent.back} formNoValidate className="btn-secondary">
      {t("new.back")}
    </button>
  );
}

export function DetailsStepForm({ draft, lastResult }: { draft?: GroupDetailsInput; lastResult: Result }) {
  const { t } = useTranslation("groups");
  const [form, fields] = useForm({
    id: "group-details",
    lastResult,
    constraint: getZodConstraint(groupDetailsSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: draft,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: groupDetailsSchema }),
  });
  return (
    <Form method="post" action="?step=1" {...getFormProps(form)} className="flex flex-col gap-5">
      <FieldErrors id={form.errorId} errors={form.errors} />
      <GroupDetailsFields fields={fields} />
      <div className="flex gap-3">
        <button type="submit" name="intent" value={Intent.next} className="btn-primary">
          {t("new.next")}
        </button>
      </div>
    </Form>
  );
}

export function StorytellerStep({
  draft,
  storytellers,
  timeZones,
  defaultTimeZone,
  today,
  pickResult,
  createResult,
}: {
  draft?: StorytellerChoice;
  storytellers: { id: string; nickname: string; first_name: string }[];
  timeZones: string[];
  defaultTimeZone: string;
  today: string;
  pickResult: Result;
  createResult: Result;
}) {
  const { t } = useTranslation("groups");
  const [pickForm, pickFields] = useForm({
    id: "group-pick",
    lastResult: pickResult,
    constraint: getZodConstraint(pickSchema),
    shouldValidate: "onSubmit",
    defaultValue: draft && "storytellerId" in draft ? { storytellerId: draft.storytellerId } : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: pickSchema }),
  });
  const [createForm, createFields] = useForm({
    id: "group-create",
    lastResult: createResult,
    constraint: getZodConstraint(createSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      language: "en",
      deliveryMethod: "email",
      timeZone: defaultTimeZone,
      firstPromptDate: today,
      frequency: "weekly",
      ...(draft && "newStoryteller" in draft ? draft.newStoryteller : {}),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createSchema }),
  });
  return (
    <div className="flex flex-col gap-8">
      {storytellers.length ? (
        <section aria-labelledby="pick-heading" className="flex flex-col gap-4">
          <h2 id="pick-heading" className="text-lg font-semibold">
            {t("new.pickHeading")}
          </h2>
          <Form method="post" action="?step=2" {...getFormProps(pickForm)} className="flex flex-col gap-4">
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
            <div className="flex gap-3">
              <BackButton />
              <button type="submit" name="intent" value={Intent.pick} className="btn-primary">
                {t("new.pick")}
              </button>
            </div>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby="create-heading" className="flex flex-col gap-4">
        <h2 id="create-heading" className="text-lg font-semibold">
          {storytellers.length ? t("new.createHeadingOr") : t("new.createHeading")}
        </h2>
        <Form
          method="post"
          action="?step=2"
          {...getFormProps(createForm)}
          className="grid gap-5 min-[700px]:grid-cols-2"
        >
          <FieldErrors id={createForm.errorId} errors={createForm.errors} />
          <StorytellerFields fields={createFields} timeZones={timeZones} />
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

export function InviteStepForm({
  draft,
  extraSlots,
  lastResult,
}: {
  draft?: string[];
  extraSlots: number;
  lastResult: Result;
}) {
  const { t } = useTranslation("groups");
  const [form, fields] = useForm({
    id: "group-invite",
    lastResult,
    constraint: getZodConstraint(invitationEmailsSchema),
    shouldValidate: "onSubmit",
    defaultValue: { emails: [...(draft ?? []), ...Array<string>(extraSlots).fill("")] },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invitationEmailsSchema }),
  });
  const slots = fields.emails.getFieldList();
  return (
    <Form method="post" action="?step=3" {...getFormProps(form)} className="flex flex-col gap-5">
      <p className="text-muted">{t("new.inviteIntro")}</p>
      <FieldErrors id={form.errorId} errors={form.errors} />
      {(slots.length ? slots : []).map((slot, index) => (
        <Field
          key={slot.key}
          label={t("fields.inviteEmail", { number: index + 1 })}
          inputProps={{ ...getInputProps(slot, { type: "email" }), autoComplete: "off" }}
          errors={slot.errors}
        />
      ))}
      <div className="flex flex-wrap gap-3">
        <BackButton />
        <button type="submit" name="intent" value={Intent.more} className="btn-secondary">
          {t("new.more")}
        </button>
        <button type="submit" name="intent" value={Intent.submit} className="btn-primary">
          {t("new.submit")}
        </button>
      </div>
    </Form>
  );
}
