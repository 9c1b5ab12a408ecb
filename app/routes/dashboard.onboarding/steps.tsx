import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { z } from "zod";
import { FieldErrors, SubmissionField, TextareaField } from "~/components/forms";
import { type LibraryCategory, PromptPicker } from "~/components/prompt-picker";
import { said, useQuestionLineMessages } from "~/components/question-errors";
import { ScheduleFields, StorytellerFields } from "~/components/storyteller-fields";
import { SendTime } from "~/components/time-zone-chooser";
import type { FormConstraint } from "~/utils/form-constraint";
import type { PromptsInput, promptsSchema } from "~/utils/prompt-schema";
import type { ScheduleInput, scheduleSchema, StorytellerInput, storytellerSchema } from "~/utils/storyteller-schema";
import type { PhoneCountry, ZoneChoice } from "~/utils/time-zones";
import { Intent } from "./intents";

// The wizard's three steps. The server checks each post with ./schema.ts and answers with its
// messages; the browser has only the fields' constraints, from the loader (decisions 026, 032).

type Result = SubmissionResult<string[]> | undefined;
type Draft = { who?: StorytellerInput; prompts?: PromptsInput; schedule?: ScheduleInput };

function StepButtons({ back, last }: { back: boolean; last?: boolean }) {
  const { t } = useTranslation("storytellers");
  return (
    <div className="flex flex-wrap gap-3">
      {back ? (
        // formNoValidate: going back never needs the current step to be valid.
        <button type="submit" name="intent" value={Intent.back} formNoValidate className="btn-secondary">
          {t("onboarding.back")}
        </button>
      ) : null}
      <button type="submit" name="intent" value={last ? Intent.submit : Intent.next} className="btn-primary">
        {last ? t("onboarding.submit") : t("onboarding.next")}
      </button>
    </div>
  );
}

export function WhoStepForm({
  draft,
  timeZones,
  phoneCountries,
  phoneCountry,
  defaultTimeZone,
  constraint,
  lastResult,
}: {
  draft?: StorytellerInput;
  timeZones: ZoneChoice[];
  phoneCountries: PhoneCountry[];
  phoneCountry: string;
  defaultTimeZone: string;
  constraint: FormConstraint;
  lastResult: Result;
}) {
  const [form, fields] = useForm<z.input<typeof storytellerSchema>>({
    lastResult,
    constraint,
    defaultValue: { language: "en", deliveryMethod: "email", timeZone: defaultTimeZone, phoneCountry, ...draft },
  });
  return (
    <Form
      method="post"
      action="?step=1"
      {...getFormProps(form)}
      className="grid grid-cols-1 gap-5 min-[700px]:grid-cols-2"
    >
      <FieldErrors id={form.errorId} errors={form.errors} />
      <StorytellerFields
        fields={fields}
        timeZones={timeZones}
        phoneCountries={phoneCountries}
        enterSubmits={{ name: "intent", value: Intent.next }}
      />
      <div className="min-[700px]:col-span-2">
        <StepButtons back={false} />
      </div>
    </Form>
  );
}

export function PromptsStepForm({
  draft,
  library,
  constraint,
  lastResult,
}: {
  draft?: PromptsInput;
  library: LibraryCategory[];
  constraint: FormConstraint;
  lastResult: Result;
}) {
  const { t } = useTranslation("storytellers");
  const [form, fields] = useForm<z.input<typeof promptsSchema>>({
    lastResult,
    constraint,
    defaultValue: {
      customPrompts: draft?.customPrompts.join("\n") ?? "",
      libraryPromptIds: (draft?.libraryPromptIds ?? []).map(String),
    },
  });
  // After a refused submission, the boxes ticked in it (not only the saved ones) stay ticked.
  const picked = new Set([fields.libraryPromptIds.initialValue ?? []].flat().map(Number));
  const errorsOf = (field: string) => [
    ...new Set(
      Object.entries(form.allErrors)
        .filter(([name]) => name.startsWith(field))
        .flatMap(([, errors]) => errors),
    ),
  ];
  // Each of his questions refused by its line ("Question 2 is too long — …"), under the box: counted
  // in what the box holds (with JavaScript the form's value; without, the refused post's).
  const typed = fields.customPrompts.value ?? fields.customPrompts.initialValue;
  const customErrors = useQuestionLineMessages(form.allErrors, "customPrompts", typeof typed === "string" ? typed : "");
  const libraryErrors = errorsOf("libraryPromptIds");
  return (
    <Form method="post" action="?step=2" {...getFormProps(form)} className="flex flex-col gap-5">
      <p className="text-muted">{t("onboarding.promptsIntro")}</p>
      <FieldErrors
        id={`${fields.libraryPromptIds.id}-error`}
        errors={libraryErrors.length ? libraryErrors : undefined}
      />
      <PromptPicker
        library={library}
        picked={library.flatMap((category) => category.prompts).filter((prompt) => picked.has(prompt.id))}
        custom={false}
      />
      <TextareaField
        label={t("fields.customPrompts")}
        textareaProps={getTextareaProps(fields.customPrompts)}
        errors={customErrors}
        say={said}
      />
      <p className="-mt-3 text-sm text-muted">{t("fields.customPromptsHint")}</p>
      <StepButtons back />
    </Form>
  );
}

export function ScheduleStepForm({
  draft,
  today,
  zonePlace,
  submissionId,
  constraint,
  lastResult,
}: {
  draft: Draft;
  today: string;
  /** Her time zone in words ("Kolkata, India"), never its IANA name. */
  zonePlace: string;
  submissionId: string;
  constraint: FormConstraint;
  lastResult: Result;
}) {
  const { t } = useTranslation("storytellers");
  const [form, fields] = useForm<z.input<typeof scheduleSchema>>({
    lastResult,
    constraint,
    defaultValue: { firstPromptDate: today, frequency: "weekly", ...draft.schedule },
  });
  const promptCount = (draft.prompts?.libraryPromptIds.length ?? 0) + (draft.prompts?.customPrompts.length ?? 0);
  return (
    <Form method="post" action="?step=3" {...getFormProps(form)} className="flex flex-col gap-5">
      <FieldErrors id={form.errorId} errors={form.errors} />
      <ScheduleFields fields={fields} minDate={today} />
      {draft.who ? (
        <section aria-labelledby="review" className="rounded-lg border border-line bg-panel p-4">
          <h2 id="review" className="mb-2 font-semibold">
            {t("onboarding.review")}
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted">{t("fields.nickname")}</dt>
            <dd>{draft.who.nickname}</dd>
            <dt className="text-muted">{t("fields.deliveryMethod")}</dt>
            <dd>
              {t(`fields.delivery.${draft.who.deliveryMethod}`)} ·{" "}
              {draft.who.deliveryMethod === "email" ? draft.who.email : draft.who.phone}
            </dd>
            <dt className="text-muted">{t("fields.timeZone")}</dt>
            <dd>
              <SendTime zone={draft.who.timeZone} place={zonePlace} />
            </dd>
            <dt className="text-muted">{t("onboarding.promptCount")}</dt>
            <dd>{promptCount}</dd>
          </dl>
        </section>
      ) : null}
      <SubmissionField id={submissionId} />
      <StepButtons back last />
    </Form>
  );
}
