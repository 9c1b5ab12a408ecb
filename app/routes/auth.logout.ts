import { redirect } from "react-router";
import { destroyUserSession } from "~/auth/session.server";
import type { ActionArgs } from "~/context.server";
import { flashToast } from "~/services/toast.server";

/** POST only: deletes the session row and always clears the cookie. */
export async function action({ request, context }: ActionArgs) {
  const { deleted, setCookie } = await destroyUserSession(request, context);
  const headers = new Headers({ "Set-Cookie": setCookie });
  if (!deleted)
    headers.append("Set-Cookie", await flashToast(request, context, { type: "error", key: "toast.unableToLogout" }));
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
