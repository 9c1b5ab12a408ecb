import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";

// Unknown dashboard paths: signed-out visitors go to log in; signed-in ones get the 404 page inside
// the dashboard layout.
export async function loader({ request, context }: LoaderArgs) {
  await requireUser(request, context);
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export default function DashboardNotFound() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
