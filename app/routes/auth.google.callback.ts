import { authenticateWithGoogle } from "~/auth/google.server";
import type { LoaderArgs } from "~/context.server";

export function loader({ request, context }: LoaderArgs) {
  return authenticateWithGoogle(context, request);
}
