import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, useActionData, useNavigation, data } from "react-router";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, FieldErrors, TextareaField } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { saveContactMessage } from "~/models/contact.server";
import { redirectWithToast } from "~/services/toast.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";
import { email, line, text } from "~/utils/validation";

export const handle = { i18n: ["contact"] };
export const meta = titleFromLoader;

const contactSchema = z.object({
  name: line(1, 100),
  email: email(),
  message: text(10, 5000),
});

export async function loader({ request, context }: LoaderArgs) {
  return { title: await pageTitle(request, context, "title", "contact") };
}

export async function action({ request, context }: ActionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: contactSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // Counted after validation, so correcting a typo never uses up someone's messages.
  const limit = await context.rateLimit("contactPerIp", context.clientIp);
  if (!limit.allowed) {
    return data(
      { result: submission.reply({ formErrors: ["errors.rateLimited"] }) },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }

  const language = await i18nServer.getLocale(request);
  await saveContactMessage(
    context.db,
    { ...submission.value, language },
    { to: context.config.CONTACT_EMAIL, appName: context.config.APP_NAME },
  );
  return redirectWithToast(request, context, "/contact-us", { type: "success", key: "toast.contactSent" });
}

export default function ContactUs() {
  const { t } = useTranslation("contact");
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(contactSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
  });
  return (
    <article className="mx-auto max-w-xl px-4 py-12">
      <h1 className="mb-3 text-3xl font-bold">{t("title")}</h1>
      <p className="mb-8 text-muted">{t("intro")}</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
        <FieldErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t("name")}
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
          errors={fields.name.errors}
        />
        <Field
          label={t("email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <TextareaField
          label={t("message")}
          textareaProps={getTextareaProps(fields.message)}
          errors={fields.message.errors}
        />
        <button type="submit" className="btn-primary self-start" disabled={navigation.state === "submitting"}>
          {t("submit")}
        </button>
      </Form>
    </article>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
