import type { AppContext } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";

/** A page's translated <title> text, made by its loader (meta functions cannot translate). */
export async function pageTitle(request: Request, context: Pick<AppContext, "config">, key: string, ns = "common") {
  const t = await getServerT(request, context, ns);
  return `${t(key)} · ${context.config.APP_NAME}`;
}
