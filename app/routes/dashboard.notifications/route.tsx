import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldErrors } from "~/components/forms";
import { NotificationEntry } from "~/components/notification-bell";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { listNotifications, markRead, unreadCount } from "~/models/notification.server";
import { log } from "~/services/logger.server";
import { redirectWithToast } from "~/services/toast.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { readForm } from "~/utils/request-body.server";
import { Intent } from "./intents";
import { notificationsSchema } from "./schema";

export const meta = titleFromLoader;

const PAGE_ITEMS = 50;
const SELF = "/dashboard/notifications";

/** The bell's page: the newest 50 notifications with their links, reachable and usable without JavaScript. */
export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const [notifications, unread] = await Promise.all([
    listNotifications(context.db, user.id, PAGE_ITEMS),
    unreadCount(context.db, user.id),
  ]);
  return {
    title: await pageTitle(request, context, "notifications.title"),
    notifications,
    unread,
    now: new Date().toISOString(),
  };
}

/** "Mark all as read": a plain form post, back to this page with a toast. */
export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await readForm(request), { schema: notificationsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await markRead(context.db, user.id, "all");
  } catch (error) {
    log.error({ module: "notifications", err: error }, "could not mark all read");
    return redirectWithToast(request, context, SELF, { type: "error", key: "notifications.markFailed" });
  }
  return redirectWithToast(request, context, SELF, { type: "success", key: "notifications.markedAllRead" });
}

export default function Notifications() {
  const { notifications, unread, now } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const refused = useActionData<typeof action>();
  return (
    <section className="max-w-3xl">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t("notifications.title")}</h1>
          <p className="text-muted">{t("notifications.unreadSummary", { count: unread })}</p>
        </div>
        {unread > 0 ? (
          <Form method="post">
            <button type="submit" name="intent" value={Intent.markAllRead} className="btn-secondary" disabled={busy}>
              {t("notifications.markAllRead")}
            </button>
          </Form>
        ) : null}
      </div>
      <FieldErrors
        id="notifications-errors"
        errors={Object.values(refused?.result.error ?? {}).flatMap((each) => each ?? [])}
      />
      {notifications.length === 0 ? <p className="text-muted">{t("notifications.empty")}</p> : null}
      <ul className="flex flex-col gap-2" data-testid="notification-list">
        {notifications.map((n) => (
          <li
            key={n.id}
            className="rounded-lg border border-line bg-panel data-[new=true]:border-s-4 data-[new=true]:border-s-primary"
            data-new={n.isNew}
          >
            <NotificationEntry item={n} now={now} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
