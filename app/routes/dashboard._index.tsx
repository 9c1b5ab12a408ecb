import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const meta = titleFromLoader;

// Every dashboard loader checks sign-in itself: Remix runs the layout's loader in parallel, not first.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return { title: await pageTitle(request, context, "dashboard.storytellers.title") };
}

// The cards arrive with the Storytellers issue; until then every account sees the empty state.
export default function StorytellersOverview() {
  const { t } = useTranslation();
  return (
    <section>
      <h1 className="mb-6 text-2xl font-bold">{t("dashboard.storytellers.title")}</h1>
      <div className="rounded-xl border border-dashed border-line bg-panel p-10 text-center">
        <h2 className="mb-2 text-lg font-semibold">{t("dashboard.storytellers.emptyTitle")}</h2>
        <p className="mb-4 text-muted">{t("dashboard.storytellers.emptyBody")}</p>
        <Link to="/dashboard/onboarding" className="btn-primary">
          {t("nav.addStoryteller")}
        </Link>
      </div>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
