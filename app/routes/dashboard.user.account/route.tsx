import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { pendingEmailChange } from "~/auth/email-change.server";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors } from "~/components/forms";
import { ProfileForm } from "~/components/profile-form";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { getAccount } from "~/models/user.server";
import { formConstraints } from "~/utils/form-constraints.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { zoneChoices } from "~/utils/time-zone-choices.server";
import { Intent } from "./intents";
import { accountSchema } from "./schema";
import {
  confirmEmail,
  deleteAccount,
  photoRefused,
  readAccountForm,
  refuse,
  saveProfile,
  savePreferences,
  saveTimeZone,
} from "./server";

export const handle = { i18n: ["account", "auth", "keep"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const [account, pending] = await Promise.all([getAccount(context.db, user.id), pendingEmailChange(context, user.id)]);
  return {
    // UTC first, where the dates are until a zone is chosen.
    zones: [{ zone: "UTC", label: "UTC" }, ...zoneChoices(user.language).map(({ zone, label }) => ({ zone, label }))],
    title: await pageTitle(request, context, "title", "account"),
    account,
    pendingEmail: pending?.new_email ?? null,
    constraint: formConstraints.profile,
  };
}

export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  const formData = await readAccountForm(request);
  if (!(formData instanceof FormData)) return photoRefused(formData.photoError, formData.unread);
  const submission = parseWithZod(formData, { schema: accountSchema });
  if (submission.status !== "success") {
    // No form of this page posts that intent (or none).
    if (submission.error?.intent) throw new Response("Bad Request", { status: 400 });
    return refuse(submission.reply());
  }
  const input = submission.value;
  switch (input.intent) {
    case Intent.general:
      return saveProfile(context, request, user, input, submission.reply);
    case Intent.confirmEmail:
      return confirmEmail(context, request, user, input, submission.reply);
    case Intent.notifications:
      return savePreferences(context, request, user, input);
    case Intent.timeZone:
      return saveTimeZone(context, request, user, input, submission.reply);
    case Intent.delete:
      return deleteAccount(context, request, user);
  }
}

export default function AccountSettings() {
  const { t } = useTranslation("account");
  const { account, pendingEmail, constraint, zones } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>()?.result ?? null;
  // Each form shows the errors of its own post.
  const errorsFor = (intent: Intent) =>
    result?.initialValue?.intent === intent
      ? Object.values(result.error ?? {})
          .flat()
          .filter((error): error is string => typeof error === "string")
      : undefined;
  return (
    <div className="flex flex-col gap-10">
      <h1 className="text-2xl font-bold">{t("title")}</h1>

      <section aria-labelledby="general" className="rounded-xl border border-line bg-panel p-6">
        <h2 id="general" className="mb-4 text-lg font-semibold">
          {t("general.title")}
        </h2>
        {account.profile_pic_key ? (
          <img
            src={`/media/profile/${account.id}?v=${encodeURIComponent(account.profile_pic_key)}`}
            alt={t("general.photoAlt")}
            className="mb-4 h-20 w-20 rounded-full object-cover"
          />
        ) : null}
        <ProfileForm account={account} constraint={constraint} lastResult={result} />
        {pendingEmail ? (
          <Form method="post" className="mt-6 flex flex-col gap-3 rounded-lg border border-line p-4">
            <input type="hidden" name="intent" value={Intent.confirmEmail} />
            <p>{t("general.confirmEmail", { email: pendingEmail })}</p>
            <FieldErrors id="confirm-email-errors" errors={errorsFor(Intent.confirmEmail)} />
            <label htmlFor="email-code" className="font-medium">
              {t("general.code")}
            </label>
            <input
              id="email-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="input max-w-40"
              required
            />
            <button type="submit" className="btn-secondary self-start">
              {t("general.confirm")}
            </button>
          </Form>
        ) : null}
      </section>

      <section aria-labelledby="notifications" className="rounded-xl border border-line bg-panel p-6">
        <h2 id="notifications" className="mb-4 text-lg font-semibold">
          {t("notifications.title")}
        </h2>
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="intent" value={Intent.notifications} />
          <FieldErrors id="notifications-errors" errors={errorsFor(Intent.notifications)} />
          {(
            [
              ["activity", account.notify_activity],
              ["application", account.notify_application],
            ] as const
          ).map(([name, checked]) => (
            <label key={name} className="flex items-start gap-3">
              <input type="checkbox" name={name} defaultChecked={checked} className="mt-1" />
              <span>
                <span className="block font-medium">{t(`notifications.${name}`)}</span>
                <span className="text-sm text-muted">{t(`notifications.${name}Hint`)}</span>
              </span>
            </label>
          ))}
          <button type="submit" className="btn-primary self-start">
            {t("notifications.save")}
          </button>
        </Form>
      </section>

      <section aria-labelledby="time-zone" className="rounded-xl border border-line bg-panel p-6">
        <h2 id="time-zone" className="mb-4 text-lg font-semibold">
          {t("timeZone.title")}
        </h2>
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value={Intent.timeZone} />
          <FieldErrors id="time-zone-errors" errors={errorsFor(Intent.timeZone)} />
          <label htmlFor="account-time-zone" className="font-medium">
            {t("timeZone.label")}
          </label>
          <select
            id="account-time-zone"
            name="timeZone"
            className="input max-w-md"
            defaultValue={account.time_zone ?? "UTC"}
            aria-describedby="account-time-zone-hint"
          >
            {zones.map((z) => (
              <option key={z.zone} value={z.zone}>
                {z.label}
              </option>
            ))}
          </select>
          <p id="account-time-zone-hint" className="text-sm text-muted">
            {account.time_zone ? t("timeZone.hint") : t("timeZone.notSet")}
          </p>
          <button type="submit" className="btn-primary self-start">
            {t("timeZone.save")}
          </button>
        </Form>
      </section>

      <section aria-labelledby="keep-everything" className="rounded-xl border border-line bg-panel p-6">
        <h2 id="keep-everything" className="mb-2 text-lg font-semibold">
          {t("keep:account.heading")}
        </h2>
        <p className="mb-4 text-muted">{t("keep:account.lead")}</p>
        <Link to="/dashboard/keep" className="btn-primary">
          {t("keep:account.link")}
        </Link>
      </section>

      <section aria-labelledby="delete" className="rounded-xl border border-danger p-6">
        <h2 id="delete" className="mb-2 text-lg font-semibold">
          {t("delete.title")}
        </h2>
        <p className="mb-4 text-muted">{t("delete.body")}</p>
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value={Intent.delete} />
          <FieldErrors id="delete-errors" errors={errorsFor(Intent.delete)} />
          <label className="flex items-center gap-2">
            <input type="checkbox" name="confirm" required />
            {t("delete.confirm")}
          </label>
          <button type="submit" className="btn-danger self-start">
            {t("delete.submit")}
          </button>
        </Form>
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
