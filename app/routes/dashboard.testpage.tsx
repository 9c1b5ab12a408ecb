import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors } from "~/components/forms";
import { queueTestPrompt } from "~/models/delivery.server";
import { numberHasOptedOut } from "~/models/sms-consent.server";
import { readFormData } from "~/utils/form-data.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { usOrCanadianE164 } from "~/utils/phone.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { phone_e164 } = await context.db.selectFrom("users").select("phone_e164").where("id", "=", user.id).executeTakeFirstOrThrow();
  return { title: await pageTitle(request, context, "testPage.title"), email: user.email, phone: phone_e164 ?? "" };
}

const formSchema = z.object({ channel: z.enum(["email", "sms"]), phone: z.string().trim().max(30).optional() });

/** Validated on the server only: two fields, no client validation code to ship. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = formSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) return data({ errors: { phone: ["testPage.phoneRequired"] } }, { status: 400 });
  const { channel, phone } = parsed.data;
  const phoneE164 = channel === "sms" ? usOrCanadianE164(phone ?? "") : null;
  if (channel === "sms" && !phoneE164) return data({ errors: { phone: ["testPage.phoneRequired"] } }, { status: 400 });
  if (phoneE164 && (await numberHasOptedOut(context.db, phoneE164))) return data({ errors: { phone: ["testPage.optedOut"] } }, { status: 400 });
  const limit = await context.rateLimit("testSendsPerUser", user.id);
  if (!limit.allowed) return redirectWithToast(request, context, "/dashboard/testpage", { type: "error", key: "testPage.tooMany" });
  await queueTestPrompt(context.db, context.config, user, phoneE164 ? { channel: "sms", phoneE164 } : { channel: "email" });
  return redirectWithToast(request, context, "/dashboard/testpage", { type: "success", key: "testPage.sent" });
}

export default function TestPage() {
  const { t } = useTranslation();
  const { email, phone } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.errors;
  return (
    <section className="flex max-w-xl flex-col gap-4">
      <h1 className="text-2xl font-bold">{t("testPage.title")}</h1>
      <p>{t("testPage.lead")}</p>
      <Form method="post" className="flex flex-col gap-4 rounded-xl border border-line bg-panel p-4">
        <fieldset className="flex flex-col gap-2">
          <legend className="font-medium">{t("testPage.channel")}</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="channel" value="email" defaultChecked /> {t("testPage.email", { address: email })}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="channel" value="sms" /> {t("testPage.sms")}
          </label>
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor="test-phone" className="font-medium">
            {t("testPage.phone")}
          </label>
          <input
            id="test-phone"
            name="phone"
            type="tel"
            autoComplete="tel"
            defaultValue={phone}
            className="input"
            aria-invalid={errors?.phone ? true : undefined}
            aria-describedby={errors?.phone ? "test-phone-error" : undefined}
          />
          <FieldErrors id="test-phone-error" errors={errors?.phone} />
        </div>
        <button type="submit" className="btn-primary self-start">
          {t("testPage.submit")}
        </button>
      </Form>
      <p>
        <Link to="/record/sample" className="underline">
          {t("testPage.samplePage")}
        </Link>
      </p>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
