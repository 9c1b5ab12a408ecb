import { data, redirect } from "react-router";
import { requireUser } from "~/auth/session.server";
import type { ActionArgs } from "~/context.server";
import { setTimeZone } from "~/models/user.server";
import { readForm } from "~/utils/request-body.server";

/**
 * The browser's time zone, posted once by the dashboard while the account has none (decision 069).
 * It never overrides a zone already there (chosen in Settings); a name that is no zone is a 400.
 */
export async function action({ request, context }: ActionArgs) {
  const user = await requireUser(request, context);
  const zone = (await readForm(request)).get("timeZone");
  const saved = typeof zone === "string" && (await setTimeZone(context.db, user.id, zone, { whenUnset: true }));
  return data({ saved }, { status: saved ? 200 : 400 });
}

export function loader() {
  return redirect("/dashboard/user/account");
}
