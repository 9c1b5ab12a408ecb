import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { getAccount, getProfileCounts } from "~/models/user.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const handle = { i18n: ["account"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const [account, counts] = await Promise.all([getAccount(context.db, user.id), getProfileCounts(context.db, user.id)]);
  return { title: await pageTitle(request, context, "profile.title", "account"), account, counts };
}

export default function Profile() {
  const { t } = useTranslation("account");
  const { account, counts } = useLoaderData<typeof loader>();
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("profile.title")}</h1>
      <div className="flex flex-wrap items-center gap-6 rounded-xl border border-line bg-panel p-6">
        {account.profile_pic_key ? (
          <img
            src={`/media/profile/${account.id}?v=${encodeURIComponent(account.profile_pic_key)}`}
            alt={t("general.photoAlt")}
            className="h-24 w-24 rounded-full object-cover"
          />
        ) : (
          <span
            className="flex h-24 w-24 items-center justify-center rounded-full bg-primary text-3xl font-bold text-white"
            aria-label={t("profile.noPhoto")}
          >
            {account.first_name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="min-w-0 [overflow-wrap:anywhere]">
          <p className="text-xl font-semibold">
            {account.first_name} {account.last_name}
          </p>
          <p className="text-muted">
            {account.nickname} · {account.email}
          </p>
        </div>
      </div>
      <dl className="grid grid-cols-[repeat(auto-fit,minmax(5.5rem,1fr))] gap-4">
        {(["storytellers", "groups", "answers"] as const).map((name) => (
          <div key={name} className="rounded-xl border border-line bg-panel p-4 text-center">
            <dt className="text-sm text-muted">{t(`profile.${name}`)}</dt>
            <dd className="text-2xl font-bold">{counts[name]}</dd>
          </div>
        ))}
      </dl>
      <p className="flex flex-wrap gap-3">
        <Link to={`/dashboard/user/${encodeURIComponent(account.nickname)}/edit`} className="btn-primary">
          {t("profile.edit")}
        </Link>
        <Link to="/dashboard/user/account" className="btn-secondary">
          {t("profile.settings")}
        </Link>
      </p>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
