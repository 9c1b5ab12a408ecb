import { GeneralErrorBoundary } from "~/components/error-boundary";

// Any path no other route matches renders the 404 page in place, with status 404 (no redirect).
export function loader() {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export function action() {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export default function CatchAll() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
