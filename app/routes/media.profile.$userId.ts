import { requireUser } from "~/auth/session.server";
import type { LoaderArgs } from "~/context.server";
import { profilePhotoKey } from "~/models/user.server";
import { photoResponse } from "~/services/images.server";

/** A profile photo, for its owner. (Record links reach the asker's photo through /record/{token}/photo.) */
export async function loader({ request, context, params }: LoaderArgs) {
  const viewer = await requireUser(request, context);
  if (params.userId !== viewer.id) throw new Response(null, { status: 404 });
  return photoResponse(context.storage, await profilePhotoKey(context.db, viewer.id), {
    "Cache-Control": "private, max-age=86400",
  });
}
