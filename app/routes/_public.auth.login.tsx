import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData, useSearchParams, data, redirect } from "react-router";
import { loginSchema } from "~/auth/forms";
import { googleEnabled } from "~/auth/google.server";
import { requestSignInCode } from "~/auth/limits.server";
import { getSessionUser } from "~/auth/session.server";
import { readSignInState } from "~/auth/sign-in.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, FieldErrors, FormAlert } from "~/components/forms";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const handle = { i18n: ["auth"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/dashboard");
  const { error, setCookie } = await readSignInState(context, request);
  return data(
    { title: await pageTitle(request, context, "login.title", "auth"), error, google: googleEnabled(context) },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

export function action({ request, context }: ActionArgs) {
  return requestSignInCode(context, request);
}

export default function Login() {
  const { t } = useTranslation("auth");
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
  const { error, google } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onBlur",
    // Errors clear while typing, so nothing shifts under the pointer when the field loses focus.
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  const redirectTo = searchParams.get("redirectTo");
  return (
    <article className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-3 text-3xl font-bold">{t("login.title")}</h1>
      <p className="mb-8 text-muted">{t("login.intro")}</p>
      <FormAlert message={error} />
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
        <FieldErrors id={form.errorId} errors={form.errors} />
        {/* Checked by the server (safeRedirectPath) before it is used. */}
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          label={t("login.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <button type="submit" className="btn-primary">
          {t("login.submit")}
        </button>
      </Form>
      {google ? (
        <Form method="post" action="/auth/google" className="mt-4">
          <button type="submit" className="btn-secondary w-full">
            {t("login.google")}
          </button>
        </Form>
      ) : null}
      <p className="mt-6 text-sm">
        {t("login.newHere")}{" "}
        <Link to="/auth/register" className="link">
          {t("login.registerLink")}
        </Link>
      </p>
      <p className="mt-2 text-sm">
        <Link to="/auth/reset-password" className="link-target">
          {t("login.cantSignIn")}
        </Link>
      </p>
    </article>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
