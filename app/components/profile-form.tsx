import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { z } from "zod";
import { Field, FieldErrors, LanguageOptions, SelectField } from "~/components/forms";
import type { FormConstraint } from "~/utils/form-constraint";
import { usePhotoSizeCheck } from "~/utils/photo-size";
import { PROFILE_INTENT } from "~/utils/profile-intent";
import type { profileSchema } from "~/utils/profile-schema";

export type ProfileDefaults = {
  first_name: string;
  last_name: string;
  nickname: string;
  email: string;
  language: string;
  phone_e164: string | null;
};

/** General settings; posts to the account page's action from wherever it is shown. */
export function ProfileForm({
  account,
  constraint,
  lastResult,
}: {
  account: ProfileDefaults;
  /** formConstraints.profile, from the page's loader. */
  constraint: FormConstraint;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("account");
  // Over 5 MB is said when the photo is chosen, not after a minute of sending it.
  const photoCheck = usePhotoSizeCheck("account:errors.photoTooLarge");
  const [form, fields] = useForm<z.input<typeof profileSchema>>({
    id: "profile",
    lastResult: lastResult?.initialValue?.intent === PROFILE_INTENT ? lastResult : undefined,
    constraint,
    defaultValue: {
      firstName: account.first_name,
      lastName: account.last_name,
      nickname: account.nickname,
      email: account.email,
      language: account.language,
      phone: account.phone_e164 ?? "",
    },
  });
  return (
    <Form
      method="post"
      action="/dashboard/user/account"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="grid grid-cols-1 gap-5 min-[700px]:grid-cols-2"
    >
      <input type="hidden" name="intent" value={PROFILE_INTENT} />
      <FieldErrors id={form.errorId} errors={form.errors} />
      <Field
        label={t("general.firstName")}
        inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
        errors={fields.firstName.errors}
      />
      <Field
        label={t("general.lastName")}
        inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
        errors={fields.lastName.errors}
      />
      <Field
        label={t("general.nickname")}
        inputProps={getInputProps(fields.nickname, { type: "text" })}
        errors={fields.nickname.errors}
      />
      <Field
        label={t("general.email")}
        hint={t("general.emailHint")}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
        errors={fields.email.errors}
      />
      <SelectField
        label={t("general.language")}
        selectProps={getSelectProps(fields.language)}
        errors={fields.language.errors}
      >
        <LanguageOptions />
      </SelectField>
      <Field
        label={t("general.phone")}
        hint={t("general.phoneHint")}
        inputProps={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "tel" }}
        errors={fields.phone.errors}
      />
      <Field
        label={t("general.photo")}
        hint={t("general.photoHint")}
        inputProps={{
          ...getInputProps(fields.photo, { type: "file" }),
          accept: "image/jpeg,image/png,image/gif,image/webp",
          onChange: photoCheck.onChange,
        }}
        errors={photoCheck.errors ?? fields.photo.errors}
      />
      <div className="min-[700px]:col-span-2">
        <button type="submit" className="btn-primary">
          {t("general.save")}
        </button>
      </div>
    </Form>
  );
}
