import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, useActionData } from "react-router";
import { loginSchema } from "~/auth/forms";
import { requestSignInCode } from "~/auth/limits.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, FieldErrors } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const handle = { i18n: ["auth"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  return { title: await pageTitle(request, context, "reset.title", "auth") };
}

// There are no passwords: "Can't sign in?" sends a fresh code and link, exactly like logging in.
export function action({ request, context }: ActionArgs) {
  return requestSignInCode(context, request);
}

export default function ResetPassword() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onBlur",
    // Errors clear while typing, so nothing shifts under the pointer when the field loses focus.
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  return (
    <article className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-3 text-3xl font-bold">{t("reset.title")}</h1>
      <p className="mb-8 text-muted">{t("reset.intro")}</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
        <FieldErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t("login.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <button type="submit" className="btn-primary">
          {t("reset.submit")}
        </button>
      </Form>
    </article>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
