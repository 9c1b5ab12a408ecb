import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateWithGoogle } from "~/auth/google.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return authenticateWithGoogle(context, request);
}
