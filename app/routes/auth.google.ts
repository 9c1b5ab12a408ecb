import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { authenticateWithGoogle } from "~/auth/google.server";

// A POST (the "Continue with Google" form), so another site cannot start a sign-in for someone.
export function action({ request, context }: ActionFunctionArgs) {
  return authenticateWithGoogle(context, request);
}

export function loader() {
  return redirect("/auth/login");
}
