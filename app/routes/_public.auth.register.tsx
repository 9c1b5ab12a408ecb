import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData, data, redirect } from "react-router";
import type { z } from "zod";
import { registerSchema } from "~/auth/forms";
import { checkSignInLimits } from "~/auth/limits.server";
import { getSessionUser } from "~/auth/session.server";
import { startSignIn } from "~/auth/sign-in.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, FieldErrors } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { i18nServer } from "~/i18n/i18next.server";
import { registerUser } from "~/models/user.server";
import { flashToast } from "~/services/toast.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";

export const handle = { i18n: ["auth"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/dashboard");
  // "My Stories" from a record page fills in what we know about the Storyteller.
  const params = new URL(request.url).searchParams;
  const defaults = {
    firstName: params.get("firstName")?.slice(0, 50) ?? "",
    email: params.get("email")?.slice(0, 254) ?? "",
  };
  // A group invitation sends its invitee here and back (checked by startSignIn's safeRedirectPath).
  const redirectTo = params.get("redirectTo");
  return { title: await pageTitle(request, context, "register.title", "auth"), defaults, redirectTo };
}

export async function action({ request, context }: ActionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: registerSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const limited = await checkSignInLimits(context, submission.value.email, "registerPerIp");
  if (limited)
    return data(
      { result: submission.reply({ formErrors: ["errors.rateLimited"] }) },
      { status: 429, headers: limited },
    );

  // An address that already has an account gets a sign-in email that says so; the page never does.
  const { created } = await registerUser(context.db, {
    ...submission.value,
    language: await i18nServer.getLocale(request),
  });
  const response = await startSignIn(context, request, {
    email: submission.value.email,
    purpose: created ? "register" : "already-registered",
    redirectTo: submission.value.redirectTo,
  });
  response.headers.append(
    "Set-Cookie",
    await flashToast(request, context, { type: "success", key: "auth:toast.registered" }),
  );
  return response;
}

export default function Register() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const { defaults, redirectTo } = useLoaderData<typeof loader>();
  const [form, fields] = useForm<z.input<typeof registerSchema>>({
    lastResult: actionData?.result,
    defaultValue: defaults,
    constraint: getZodConstraint(registerSchema),
    shouldValidate: "onBlur",
    // Errors clear while typing, so nothing shifts under the pointer when the field loses focus.
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerSchema }),
  });
  return (
    <article className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-3 text-3xl font-bold">{t("register.title")}</h1>
      <p className="mb-8 text-muted">{t("register.intro")}</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
        <FieldErrors id={form.errorId} errors={form.errors} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          label={t("register.firstName")}
          inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
          errors={fields.firstName.errors}
        />
        <Field
          label={t("register.lastName")}
          inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
          errors={fields.lastName.errors}
        />
        <Field
          label={t("register.nickname")}
          inputProps={{ ...getInputProps(fields.nickname, { type: "text" }), autoComplete: "nickname" }}
          errors={fields.nickname.errors}
          hint={t("register.nicknameHint")}
        />
        <Field
          label={t("register.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <button type="submit" className="btn-primary">
          {t("register.submit")}
        </button>
      </Form>
      <p className="mt-6 text-sm">
        {t("register.haveAccount")}{" "}
        <Link to="/auth/login" className="link">
          {t("register.loginLink")}
        </Link>
      </p>
    </article>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
