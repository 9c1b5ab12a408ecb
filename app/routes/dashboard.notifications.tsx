import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { NotificationEntry, toNotificationView } from "~/components/notification-bell";
import { listNotifications, markRead, unreadCount } from "~/models/notification.server";
import { readFormData } from "~/utils/form-data.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta = titleFromLoader;

const PAGE_ITEMS = 50;
const SELF = "/dashboard/notifications";

/** The bell's page: the newest 50 notifications with their links, reachable and usable without JavaScript. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const [notifications, unread] = await Promise.all([listNotifications(context.db, user.id, PAGE_ITEMS), unreadCount(context.db, user.id)]);
  return {
    title: await pageTitle(request, context, "notifications.title"),
    notifications: notifications.map(toNotificationView),
    unread,
    now: new Date().toISOString(),
  };
}

/** "Mark all as read": a plain form post, back to this page with a toast. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readFormData(request);
  if (form.get("intent") !== "markAllRead") throw new Response("Bad Request", { status: 400 });
  try {
    await markRead(context.db, user.id, "all");
  } catch (error) {
    console.error("[notifications] could not mark all read:", (error as Error).message);
    return redirectWithToast(request, context, SELF, { type: "error", key: "notifications.markFailed" });
  }
  return redirectWithToast(request, context, SELF, { type: "success", key: "notifications.markedAllRead" });
}

export default function Notifications() {
  const { notifications, unread, now } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="max-w-3xl">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t("notifications.title")}</h1>
          <p className="text-muted">{t("notifications.unreadSummary", { count: unread })}</p>
        </div>
        {unread > 0 ? (
          <Form method="post">
            <button type="submit" name="intent" value="markAllRead" className="btn-secondary" disabled={busy}>
              {t("notifications.markAllRead")}
            </button>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? <p className="text-muted">{t("notifications.empty")}</p> : null}
      <ul className="flex flex-col gap-2" data-testid="notification-list">
        {notifications.map((n) => (
          <li key={n.id} className="rounded-lg border border-line bg-panel data-[new=true]:border-s-4 data-[new=true]:border-s-primary" data-new={n.isNew}>
            <NotificationEntry item={n} now={now} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
