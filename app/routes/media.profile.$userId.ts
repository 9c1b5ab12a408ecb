import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { photoResponse } from "~/utils/images.server";

/** A profile photo, for its owner. (Record links reach the asker's photo through /record/{token}/photo.) */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request, context);
  if (params.userId !== viewer.id) throw new Response(null, { status: 404 });
  const user = await context.db.selectFrom("users").select("profile_pic_key").where("id", "=", viewer.id).executeTakeFirst();
  return photoResponse(context.storage, user?.profile_pic_key, { "Cache-Control": "private, max-age=86400" });
}
