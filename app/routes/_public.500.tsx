import { GeneralErrorBoundary } from "~/components/error-boundary";

export function loader() {
  throw new Response(null, { status: 500, statusText: "Internal Server Error" });
}

export default function ServerError() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
