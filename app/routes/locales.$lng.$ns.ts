import type { LoaderArgs } from "~/context.server";
import { isSupportedLanguage } from "~/i18n/config";
import { resources } from "~/i18n/resources.server";

/** Translations for the browser, for namespaces a client-side navigation needs. */
export function loader({ params }: LoaderArgs) {
  const { lng, ns } = params;
  if (!isSupportedLanguage(lng) || !ns || !Object.hasOwn(resources[lng], ns)) {
    throw new Response(null, { status: 404 });
  }
  return Response.json(resources[lng][ns as keyof (typeof resources)["en"]], {
    headers: { "Cache-Control": "public, max-age=300, stale-while-revalidate=86400" },
  });
}
