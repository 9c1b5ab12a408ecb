import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const meta = titleFromLoader;

/** The bell's page: the list the popover will show, reachable without JavaScript. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const notifications = await context.db
    .selectFrom("notifications")
    .leftJoin("storytellers", "storytellers.id", "notifications.storyteller_id")
    .select(["notifications.id", "notifications.type", "notifications.is_new", "notifications.created_at", "storytellers.nickname"])
    .where("notifications.user_id", "=", user.id)
    .orderBy("notifications.created_at", "desc")
    .limit(50)
    .execute();
  return {
    title: await pageTitle(request, context, "notifications.title"),
    notifications: notifications.map((n) => ({ ...n, created_at: n.created_at.toISOString() })),
  };
}

const KNOWN_TYPES = new Set(["new", "uploaded", "skipped", "listened", "queue_empty"]);

export default function Notifications() {
  const { notifications } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section>
      <h1 className="mb-6 text-2xl font-bold">{t("notifications.title")}</h1>
      {notifications.length === 0 ? <p className="text-muted">{t("notifications.empty")}</p> : null}
      <ul className="flex flex-col gap-2">
        {notifications.map((n) => (
          <li key={n.id} className="rounded-lg border border-line bg-panel p-3" data-new={n.is_new}>
            {t(`notifications.types.${KNOWN_TYPES.has(n.type) ? n.type : "unknown"}`, { name: n.nickname ?? "" })}
          </li>
        ))}
      </ul>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
