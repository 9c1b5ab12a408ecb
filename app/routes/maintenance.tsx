import { data, redirect } from "react-router";
import { ErrorPage, GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const meta = titleFromLoader;

// While MAINTENANCE_MODE is on, server/http.ts sends every page here and this answers 503.
export async function loader({ request, context }: LoaderArgs) {
  if (!context.config.MAINTENANCE_MODE) throw redirect("/");
  const title = await pageTitle(request, context, "errors.maintenance.title");
  return data({ title }, { status: 503, headers: { "Retry-After": "600", "Cache-Control": "no-store" } });
}

export default function Maintenance() {
  return (
    <main id="main">
      <ErrorPage code={503} titleKey="errors.maintenance.title" bodyKey="errors.maintenance.body" />
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
