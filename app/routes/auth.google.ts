import { redirect } from "react-router";
import { authenticateWithGoogle } from "~/auth/google.server";
import type { ActionArgs } from "~/context.server";

// A POST (the "Continue with Google" form), so another site cannot start a sign-in for someone.
export function action({ request, context }: ActionArgs) {
  return authenticateWithGoogle(context, request);
}

export function loader() {
  return redirect("/auth/login");
}
