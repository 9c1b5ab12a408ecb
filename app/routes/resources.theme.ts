import { redirect } from "react-router";
import { safeRedirectPath } from "~/auth/session.server";
import type { ActionArgs } from "~/context.server";
import { flashToast } from "~/services/toast.server";
import { readForm } from "~/utils/request-body.server";
import { getThemeSettings, serializeThemeSettings, themeSettingsSchema } from "~/utils/theme.server";

/** Saves theme settings (mode, text size, colour) in the `settings` cookie. */
export async function action({ request, context }: ActionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const current = await getThemeSettings(request);
  const settings = themeSettingsSchema.parse({ ...current, ...form });
  const headers = new Headers();
  headers.append("Set-Cookie", await serializeThemeSettings(settings, context.config));
  headers.append("Set-Cookie", await flashToast(request, context, { type: "success", key: "toast.settingsSaved" }));
  return redirect(safeRedirectPath(form.redirectTo, "/"), { headers });
}

export function loader() {
  return redirect("/");
}
