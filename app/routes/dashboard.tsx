import { useEffect } from "react";
import { Outlet, useFetcher, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { DashboardSidebar } from "~/components/dashboard-sidebar";
import { DashboardTopbar } from "~/components/dashboard-topbar";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { getSidebarCounts } from "~/models/sidebar.server";
import { isSiteAdmin } from "~/models/user.server";

// The sidebar's Add Group opens its dialog on every dashboard page, in the page's language.
export const handle = { i18n: ["groups"] };

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const [counts, siteAdmin] = await Promise.all([getSidebarCounts(context.db, user.id), isSiteAdmin(context, user)]);
  return {
    user: { firstName: user.first_name, email: user.email },
    counts,
    appName: context.config.APP_NAME,
    siteAdmin,
    timeZoneKnown: user.time_zone !== null,
  };
}

/**
 * Tells the account the browser's time zone once, while it has none (decision 069): the pages
 * reload their data and write dates in it from then on, on the server too.
 */
function useReportTimeZone(known: boolean) {
  const { submit } = useFetcher();
  useEffect(() => {
    if (known) return;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) void submit({ timeZone: zone }, { method: "post", action: "/resources/time-zone" });
  }, [known, submit]);
}

export default function DashboardLayout() {
  const { user, counts, appName, timeZoneKnown } = useLoaderData<typeof loader>();
  useReportTimeZone(timeZoneKnown);
  return (
    <div className="min-[900px]:flex">
      <DashboardSidebar counts={counts} appName={appName} />
      <div className="min-w-0 flex-1">
        <DashboardTopbar user={user} unread={counts.unreadNotifications} />
        <main id="main" className="mx-auto max-w-6xl px-4 py-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
