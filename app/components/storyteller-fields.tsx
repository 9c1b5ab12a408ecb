import { type FieldMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import { Field, FieldErrors, LanguageOptions, SelectField, TimeZoneOptions } from "~/components/forms";
import { addDays } from "~/utils/calendar";
import { deliveryMethods, FIRST_PROMPT_MAX_DAYS_AHEAD, frequencies } from "~/utils/storyteller-choices";

// The Storyteller form's parts, for any conform form whose schema includes storytellerShape and/or
// scheduleShape (~/utils/storyteller-schema): adding a Storyteller, editing one, Add Group. They
// render fields only; the form, its layout and its buttons belong to the page.

type Meta = FieldMetadata<unknown>;

export type StorytellerFieldsMeta = Record<
  | "nickname"
  | "firstName"
  | "relationship"
  | "deliveryMethod"
  | "email"
  | "phone"
  | "callConsent"
  | "whatsappConsent"
  | "timeZone"
  | "language",
  Meta
>;

/** Who the Storyteller is and how questions reach them. */
export function StorytellerFields({
  fields,
  timeZones,
  timeZoneRef,
}: {
  fields: StorytellerFieldsMeta;
  timeZones: string[];
  timeZoneRef?: Ref<HTMLSelectElement>;
}) {
  const { t } = useTranslation("storytellers");
  const { key: consentKey, ...consentProps } = getInputProps(fields.callConsent, { type: "checkbox", value: "on" });
  const { key: whatsappKey, ...whatsappProps } = getInputProps(fields.whatsappConsent, {
    type: "checkbox",
    value: "on",
  });
  return (
    <>
      <Field
        label={t("fields.nickname")}
        hint={t("fields.nicknameHint")}
        inputProps={getInputProps(fields.nickname, { type: "text" })}
        errors={fields.nickname.errors}
      />
      <Field
        label={t("fields.firstName")}
        inputProps={getInputProps(fields.firstName, { type: "text" })}
        errors={fields.firstName.errors}
      />
      <Field
        label={t("fields.relationship")}
        hint={t("fields.relationshipHint")}
        inputProps={getInputProps(fields.relationship, { type: "text" })}
        errors={fields.relationship.errors}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">{t("fields.deliveryMethod")}</legend>
        {deliveryMethods.map((method) => (
          <label key={method} className="flex items-center gap-2">
            <input
              type="radio"
              name={fields.deliveryMethod.name}
              value={method}
              defaultChecked={(fields.deliveryMethod.initialValue ?? "email") === method}
            />
            {t(`fields.delivery.${method}`)}
          </label>
        ))}
        <FieldErrors id={`${fields.deliveryMethod.id}-error`} errors={fields.deliveryMethod.errors} />
      </fieldset>
      <Field
        label={t("fields.email")}
        hint={t("fields.emailHint")}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
        errors={fields.email.errors}
      />
      <Field
        label={t("fields.phone")}
        hint={t("fields.phoneHint")}
        inputProps={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "off" }}
        errors={fields.phone.errors}
      />
      <div className="flex flex-col gap-1 min-[700px]:col-span-2">
        <label className="flex items-start gap-2">
          <input key={consentKey} {...consentProps} className="mt-1" />
          <span>{t("fields.callConsent")}</span>
        </label>
        <p className="text-sm text-muted">{t("fields.callConsentHint")}</p>
        <FieldErrors id={fields.callConsent.errorId} errors={fields.callConsent.errors} />
      </div>
      <div className="flex flex-col gap-1 min-[700px]:col-span-2">
        <label className="flex items-start gap-2">
          <input key={whatsappKey} {...whatsappProps} className="mt-1" />
          <span>{t("fields.whatsappConsent")}</span>
        </label>
        <p className="text-sm text-muted">{t("fields.whatsappConsentHint")}</p>
        <FieldErrors id={fields.whatsappConsent.errorId} errors={fields.whatsappConsent.errors} />
      </div>
      <SelectField
        label={t("fields.timeZone")}
        selectProps={getSelectProps(fields.timeZone)}
        errors={fields.timeZone.errors}
        selectRef={timeZoneRef}
      >
        <TimeZoneOptions zones={timeZones} />
      </SelectField>
      <SelectField
        label={t("fields.language")}
        selectProps={getSelectProps(fields.language)}
        errors={fields.language.errors}
      >
        <LanguageOptions />
      </SelectField>
    </>
  );
}

export type ScheduleFieldsMeta = Record<"firstPromptDate" | "frequency", Meta>;

/**
 * When the first question goes (from `minDate`, when given, to a year after it, as the server holds
 * it: firstPromptDateProblem) and how often the next ones follow.
 */
export function ScheduleFields({ fields, minDate }: { fields: ScheduleFieldsMeta; minDate?: string }) {
  const { t } = useTranslation("storytellers");
  return (
    <>
      <Field
        label={t("fields.firstPromptDate")}
        inputProps={{
          ...getInputProps(fields.firstPromptDate, { type: "date" }),
          min: minDate,
          max: minDate ? addDays(minDate, FIRST_PROMPT_MAX_DAYS_AHEAD) : undefined,
        }}
        errors={fields.firstPromptDate.errors}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">{t("fields.frequency")}</legend>
        {frequencies.map((frequency) => (
          <label key={frequency} className="flex items-center gap-2">
            <input
              type="radio"
              name={fields.frequency.name}
              value={frequency}
              defaultChecked={(fields.frequency.initialValue ?? "weekly") === frequency}
            />
            {t(`frequency.${frequency}`)}
          </label>
        ))}
        <FieldErrors id={`${fields.frequency.id}-error`} errors={fields.frequency.errors} />
      </fieldset>
    </>
  );
}
