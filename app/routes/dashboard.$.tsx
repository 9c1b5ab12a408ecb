import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";

// Unknown dashboard paths: signed-out visitors go to log in; signed-in ones get the 404 page inside
// the dashboard layout.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export default function DashboardNotFound() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
