import { getSessionUser } from "~/auth/session.server";
import type { LoaderArgs } from "~/context.server";

/** The signed-in user, in the shape the first design gave it (mixed-case keys kept as they are), or 401. */
export async function loader({ request, context }: LoaderArgs) {
  const user = await getSessionUser(request, context);
  const headers = { "Cache-Control": "private, no-store" };
  if (!user) return Response.json({ error: "Unauthorized" }, { status: 401, headers });
  return Response.json(
    {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      nickName: user.nickname,
      profile_pic: user.profile_pic_key ? `/media/profile/${user.id}` : null,
    },
    { headers },
  );
}
