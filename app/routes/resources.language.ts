import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirectPath } from "~/auth/session.server";
import { isSupportedLanguage } from "~/i18n/config";
import { languageCookie } from "~/i18n/i18next.server";
import { readFormData } from "~/utils/form-data.server";

/** Saves the visitor's language choice in a cookie and returns them to the page they were on. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const lng = form.get("lng");
  const back = new URL(safeRedirectPath(form.get("redirectTo"), "/"), "http://local");
  back.searchParams.delete("lng");
  const headers = isSupportedLanguage(lng) ? { "Set-Cookie": await languageCookie.serialize(lng) } : undefined;
  return redirect(back.pathname + back.search, { headers });
}

export function loader() {
  return redirect("/");
}
