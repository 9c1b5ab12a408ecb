import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";

const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", gif: "image/gif" };

/** A profile photo, for its owner. (Groups and record pages get their own scoped routes.) */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request, context);
  if (params.userId !== viewer.id) throw new Response(null, { status: 404 });
  const user = await context.db.selectFrom("users").select("profile_pic_key").where("id", "=", viewer.id).executeTakeFirst();
  const key = user?.profile_pic_key;
  const stored = key ? await context.storage.get(key) : null;
  if (!key || !stored) throw new Response(null, { status: 404 });
  return new Response(stored.body, {
    headers: {
      "Content-Type": CONTENT_TYPES[key.split(".").pop() ?? ""] ?? "application/octet-stream",
      "Content-Length": String(stored.size),
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=86400",
    },
  });
}
