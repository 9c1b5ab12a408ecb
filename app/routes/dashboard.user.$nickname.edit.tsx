import { useTranslation } from "react-i18next";
import { useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ProfileForm } from "~/components/profile-form";
import type { LoaderArgs } from "~/context.server";
import { getAccount } from "~/models/user.server";
import { formConstraints } from "~/utils/form-constraints.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const handle = { i18n: ["account"] };
export const meta = titleFromLoader;

// Only one's own nickname: anyone else's is a 404 (nicknames are not secret, but profiles are).
export async function loader({ request, context, params }: LoaderArgs) {
  const user = await requireUser(request, context);
  if (params.nickname !== user.nickname) throw new Response(null, { status: 404 });
  return {
    title: await pageTitle(request, context, "profile.edit", "account"),
    account: await getAccount(context.db, user.id),
    constraint: formConstraints.profile,
  };
}

export default function EditProfile() {
  const { t } = useTranslation("account");
  const { account, constraint } = useLoaderData<typeof loader>();
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">{t("profile.edit")}</h1>
      <div className="rounded-xl border border-line bg-panel p-6">
        <ProfileForm account={account} constraint={constraint} />
      </div>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
