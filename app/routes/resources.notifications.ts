import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { toNotificationView } from "~/components/notification-bell";
import { listNotifications, markRead, unreadCount } from "~/models/notification.server";
import { readFormData } from "~/utils/form-data.server";

/** What the bell's popover shows (PRODUCT.md: at most 5 items). */
const POPOVER_ITEMS = 5;
/** A popover never marks more than it can show; a longer list is someone else's request. */
const MAX_IDS = 50;

const noStore = { "Cache-Control": "private, no-store" };

// Plain JSON responses (not turbo-stream data): a resource route is also fetched from outside Remix.

/**
 * The popover's items, loaded only when the bell is opened (so dashboard pages don't pay for them).
 * A failure comes back as data, not a thrown error: the popover says so instead of the page breaking.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  try {
    const items = await listNotifications(context.db, user.id, POPOVER_ITEMS);
    return Response.json({ ok: true as const, items: items.map(toNotificationView), now: new Date().toISOString() }, { headers: noStore });
  } catch (error) {
    console.error("[notifications] could not list:", (error as Error).message);
    return Response.json({ ok: false as const, items: [], now: new Date().toISOString() }, { headers: noStore });
  }
}

/** Marks the shown items (`id` fields) or everything (`intent=all`) read; answers once it is stored. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readFormData(request);
  const ids = form.get("intent") === "all" ? ("all" as const) : form.getAll("id").filter((v): v is string => typeof v === "string").slice(0, MAX_IDS);
  try {
    const marked = await markRead(context.db, user.id, ids);
    return Response.json({ ok: true as const, marked }, { headers: noStore });
  } catch (error) {
    console.error("[notifications] could not mark read:", (error as Error).message);
    return Response.json({ ok: false as const, marked: 0 }, { headers: noStore });
  }
}
