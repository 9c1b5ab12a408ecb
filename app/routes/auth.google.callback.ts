import type { LoaderArgs } from "~/context.server";
import { authenticateWithGoogle } from "~/auth/google.server";

export function loader({ request, context }: LoaderArgs) {
  return authenticateWithGoogle(context, request);
}
