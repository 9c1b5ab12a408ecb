import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData, data, redirect } from "react-router";
import { verifySchema } from "~/auth/forms";
import { getSessionUser } from "~/auth/session.server";
import { readSignInState, verifySignIn } from "~/auth/sign-in.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, FieldErrors, FormAlert } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";

export const handle = { i18n: ["auth"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/dashboard");
  const { email, error, setCookie } = await readSignInState(context, request);
  return data(
    { title: await pageTitle(request, context, "verify.title", "auth"), email, error },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

export async function action({ request, context }: ActionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: verifySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const limit = await context.rateLimit("verifyPerIp", context.clientIp);
  if (!limit.allowed) {
    return data(
      { result: submission.reply({ formErrors: ["errors.rateLimited"] }) },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  return verifySignIn(context, request, formData);
}

export default function Verify() {
  const { t } = useTranslation("auth");
  const { email, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(verifySchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: verifySchema }),
  });
  return (
    <article className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-3 text-3xl font-bold">{t("verify.title")}</h1>
      {email ? (
        <>
          <p className="mb-2">{t("verify.sentTo", { email })}</p>
          <p className="mb-8 text-muted">{t("verify.linkHint")}</p>
        </>
      ) : (
        <p className="mb-8 text-muted">{t("verify.otherDevice")}</p>
      )}
      <FormAlert message={error} />
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
        <FieldErrors id={form.errorId} errors={form.errors} />
        {email ? null : (
          <Field
            label={t("verify.email")}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
            errors={fields.email.errors}
          />
        )}
        <Field
          label={t("verify.code")}
          inputProps={{
            ...getInputProps(fields.code, { type: "text" }),
            inputMode: "numeric",
            autoComplete: "one-time-code",
            maxLength: 6,
          }}
          errors={fields.code.errors}
        />
        <button type="submit" className="btn-primary">
          {t("verify.submit")}
        </button>
      </Form>
      <p className="mt-6 flex flex-wrap gap-x-4 text-sm">
        <Link to="/auth/reset-password" className="link-target">
          {t("verify.resend")}
        </Link>
        <Link to="/auth/login" className="link-target">
          {t("verify.differentEmail")}
        </Link>
      </p>
    </article>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
