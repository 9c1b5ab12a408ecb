import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { getSessionUser, safeRedirectPath } from "~/auth/session.server";
import { isSupportedLanguage } from "~/i18n/config";
import { languageCookie } from "~/i18n/i18next.server";
import { readFormData } from "~/utils/form-data.server";

/**
 * Saves the visitor's language choice in a cookie (and, when signed in, in their account, so it
 * follows them) and returns them to the page they were on.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const lng = form.get("lng");
  const back = new URL(safeRedirectPath(form.get("redirectTo"), "/"), "http://local");
  back.searchParams.delete("lng");
  if (!isSupportedLanguage(lng)) return redirect(back.pathname + back.search);
  const user = await getSessionUser(request, context);
  if (user) await context.db.updateTable("users").set({ language: lng }).where("id", "=", user.id).execute();
  const headers = { "Set-Cookie": await languageCookie.serialize(lng) };
  return redirect(back.pathname + back.search, { headers });
}

export function loader() {
  return redirect("/");
}
