import { redirect } from "react-router";
import { getSessionUser, safeRedirectPath } from "~/auth/session.server";
import type { ActionArgs } from "~/context.server";
import { isSupportedLanguage } from "~/i18n/config";
import { serializeLanguage } from "~/i18n/i18next.server";
import { updateLanguage } from "~/models/user.server";
import { readForm } from "~/utils/request-body.server";

/**
 * Saves the visitor's language choice in a cookie (and, when signed in, in their account, so it
 * follows them) and returns them to the page they were on.
 */
export async function action({ request, context }: ActionArgs) {
  const form = await readForm(request);
  const lng = form.get("lng");
  const back = new URL(safeRedirectPath(form.get("redirectTo"), "/"), "http://local");
  back.searchParams.delete("lng");
  if (!isSupportedLanguage(lng)) return redirect(back.pathname + back.search);
  const user = await getSessionUser(request, context);
  if (user) await updateLanguage(context.db, user.id, lng);
  const headers = { "Set-Cookie": await serializeLanguage(lng, context.config) };
  return redirect(back.pathname + back.search, { headers });
}

export function loader() {
  return redirect("/");
}
