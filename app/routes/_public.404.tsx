import { GeneralErrorBoundary } from "~/components/error-boundary";

export function loader() {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
