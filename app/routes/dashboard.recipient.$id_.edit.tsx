import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/auth/session.server";
import { inTransaction } from "../../db/client";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, FieldErrors, LanguageOptions, SelectField, TimeZoneOptions } from "~/components/forms";
import { frequencies, storytellerEditSchema } from "~/models/onboarding";
import { isTimeZone } from "~/models/onboarding.server";
import { deleteWithAnswerFiles } from "~/models/answer.server";
import { requestSmsConsent } from "~/models/sms-consent.server";
import { getOwnedStoryteller, updateStoryteller } from "~/models/storyteller.server";
import { readFormData } from "~/utils/form-data.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { usOrCanadianE164 } from "~/utils/phone.server";
import { timeZoneNames } from "~/utils/time-zones";
import { redirectWithToast } from "~/utils/toast.server";
import { idParam } from "~/utils/ids";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const storyteller = await getOwnedStoryteller(context.db, user.id, idParam(params.id));
  return { title: await pageTitle(request, context, "view.editStoryteller", "storytellers"), storyteller, timeZones: timeZoneNames() };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const current = await getOwnedStoryteller(context.db, user.id, idParam(params.id));
  const formData = await readFormData(request);
  if (formData.get("intent") === "delete") {
    if (formData.get("confirm") !== "on") return data({ result: null, deleteError: "storytellers:edit.confirmRequired" }, { status: 400 });
    // Prompts, schedule, deliveries, answers and group links go with it (foreign keys cascade); then the recordings.
    await deleteWithAnswerFiles(context, { storytellerId: current.id }, (tx) => tx.deleteFrom("storytellers").where("id", "=", current.id).execute());
    return redirectWithToast(request, context, "/dashboard", { type: "success", key: "storytellers:toast.storytellerDeleted" });
  }
  const submission = parseWithZod(formData, { schema: storytellerEditSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), deleteError: null }, { status: 400 });
  const value = submission.value;
  const phoneE164 = value.phone ? usOrCanadianE164(value.phone) : null;
  const fieldErrors: Record<string, string[]> = {};
  if (value.phone && !phoneE164) fieldErrors.phone = ["storytellers:errors.phoneNotUsCa"];
  if (!isTimeZone(value.timeZone)) fieldErrors.timeZone = ["storytellers:errors.timeZoneInvalid"];
  if (Object.keys(fieldErrors).length) return data({ result: submission.reply({ fieldErrors }), deleteError: null }, { status: 400 });

  try {
    await inTransaction(context.db, async (tx) => {
      const { needsSmsConsent } = await updateStoryteller(tx, current.id, { ...value, phoneE164 }, value);
      if (needsSmsConsent) await requestSmsConsent(tx, context.config, current.id);
    });
  } catch (error) {
    console.error("[storyteller] update failed:", (error as Error).message);
    return redirectWithToast(request, context, `/dashboard/recipient/${current.id}`, { type: "error", key: "storytellers:toast.updateFailed" });
  }
  return redirectWithToast(request, context, `/dashboard/recipient/${current.id}`, { type: "success", key: "storytellers:toast.updated" });
}

export default function EditStoryteller() {
  const { t } = useTranslation("storytellers");
  const { storyteller, timeZones } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: actionData?.result ?? undefined,
    constraint: getZodConstraint(storytellerEditSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      nickname: storyteller.nickname,
      firstName: storyteller.first_name,
      relationship: storyteller.relationship,
      deliveryMethod: storyteller.delivery_method,
      email: storyteller.email ?? "",
      phone: storyteller.phone_e164 ?? "",
      timeZone: storyteller.time_zone,
      language: storyteller.language,
      firstPromptDate: storyteller.first_prompt_date,
      frequency: storyteller.frequency,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: storytellerEditSchema }),
  });
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("view.editStoryteller")}</h1>
      <Form method="post" {...getFormProps(form)} className="grid gap-5 rounded-xl border border-line bg-panel p-6 min-[700px]:grid-cols-2">
        <input type="hidden" name="intent" value="update" />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <Field label={t("fields.nickname")} inputProps={getInputProps(fields.nickname, { type: "text" })} errors={fields.nickname.errors} />
        <Field label={t("fields.firstName")} inputProps={getInputProps(fields.firstName, { type: "text" })} errors={fields.firstName.errors} />
        <Field label={t("fields.relationship")} inputProps={getInputProps(fields.relationship, { type: "text" })} errors={fields.relationship.errors} />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-medium">{t("fields.deliveryMethod")}</legend>
          {(["email", "sms"] as const).map((method) => (
            <label key={method} className="flex items-center gap-2">
              <input type="radio" name={fields.deliveryMethod.name} value={method} defaultChecked={fields.deliveryMethod.initialValue === method} />
              {t(`fields.delivery.${method}`)}
            </label>
          ))}
        </fieldset>
        <Field label={t("fields.email")} inputProps={getInputProps(fields.email, { type: "email" })} errors={fields.email.errors} />
        <Field label={t("fields.phone")} inputProps={getInputProps(fields.phone, { type: "tel" })} errors={fields.phone.errors} />
        <SelectField label={t("fields.timeZone")} selectProps={getSelectProps(fields.timeZone)} errors={fields.timeZone.errors}>
          <TimeZoneOptions zones={timeZones} />
        </SelectField>
        <SelectField label={t("fields.language")} selectProps={getSelectProps(fields.language)}>
          <LanguageOptions />
        </SelectField>
        <Field label={t("fields.firstPromptDate")} inputProps={getInputProps(fields.firstPromptDate, { type: "date" })} errors={fields.firstPromptDate.errors} />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-medium">{t("fields.frequency")}</legend>
          {frequencies.map((frequency) => (
            <label key={frequency} className="flex items-center gap-2">
              <input type="radio" name={fields.frequency.name} value={frequency} defaultChecked={fields.frequency.initialValue === frequency} />
              {t(`frequency.${frequency}`)}
            </label>
          ))}
        </fieldset>
        <div className="flex gap-3 min-[700px]:col-span-2">
          <button type="submit" className="btn-primary">
            {t("view.save")}
          </button>
          <Link to={`/dashboard/recipient/${storyteller.id}`} className="btn-secondary">
            {t("view.cancel")}
          </Link>
        </div>
      </Form>
      <Form method="post" className="flex flex-col gap-3 rounded-xl border border-danger p-6">
        <input type="hidden" name="intent" value="delete" />
        <h2 className="text-lg font-semibold">{t("edit.deleteTitle")}</h2>
        <p className="text-muted">{t("edit.deleteBody", { name: storyteller.nickname })}</p>
        <FieldErrors id="delete-storyteller-errors" errors={actionData?.deleteError ? [actionData.deleteError] : undefined} />
        <label className="flex items-center gap-2">
          <input type="checkbox" name="confirm" required />
          {t("edit.confirm")}
        </label>
        <button type="submit" className="btn-danger self-start">
          {t("edit.delete")}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
