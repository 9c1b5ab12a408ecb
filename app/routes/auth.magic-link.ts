import { verifySignIn } from "~/auth/sign-in.server";
import type { LoaderArgs } from "~/context.server";

// The emailed link. It only works in the browser that asked for the code (the sign-in in progress
// lives behind that browser's cookie), so a mail scanner opening it changes nothing.
export function loader({ request, context }: LoaderArgs) {
  return verifySignIn(context, request);
}
