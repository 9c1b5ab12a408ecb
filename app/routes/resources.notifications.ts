import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { requireUser } from "~/auth/session.server";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { listNotifications, markRead } from "~/models/notification.server";
import { log } from "~/services/logger.server";
import { BellIntent } from "~/utils/notifications";
import { readForm } from "~/utils/request-body.server";
import { unknownIntent } from "~/utils/validation";

/** What the bell's popover shows (docs/product.md: at most 5 items). */
const POPOVER_ITEMS = 5;
/** A popover never marks more than it can show; a longer list is someone else's request. */
const MAX_IDS = 50;

const noStore = { "Cache-Control": "private, no-store" };

// The bell posts its shown ids with intent "shown"; a post of ids alone (no intent) means the same.
const schema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal(BellIntent.markAll) }),
    z.object({
      intent: z.literal(BellIntent.markShown).optional(),
      id: z
        .array(z.string())
        .default([])
        .transform((ids) => ids.slice(0, MAX_IDS)),
    }),
  ],
  unknownIntent,
);

// Plain JSON responses (not turbo-stream data): a resource route is also fetched from outside React Router.

/**
 * The popover's items, loaded only when the bell is opened (so dashboard pages don't pay for them).
 * A failure comes back as data, not a thrown error: the popover says so instead of the page breaking.
 */
export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  try {
    const items = await listNotifications(context.db, user.id, POPOVER_ITEMS);
    return Response.json({ ok: true as const, items, now: new Date().toISOString() }, { headers: noStore });
  } catch (error) {
    log.error({ module: "notifications", err: error }, "could not list");
    return Response.json({ ok: false as const, items: [], now: new Date().toISOString() }, { headers: noStore });
  }
}

/** Marks the shown items (`id` fields) or everything (`intent=all`) read; answers once it is stored. An unknown intent is a 400. */
export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success")
    return Response.json({ ok: false as const, marked: 0 }, { status: 400, headers: noStore });
  const input = submission.value;
  try {
    const marked = await markRead(context.db, user.id, input.intent === BellIntent.markAll ? "all" : input.id);
    return Response.json({ ok: true as const, marked }, { headers: noStore });
  } catch (error) {
    log.error({ module: "notifications", err: error }, "could not mark read");
    return Response.json({ ok: false as const, marked: 0 }, { headers: noStore });
  }
}
