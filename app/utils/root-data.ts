import { useRouteLoaderData } from "react-router";
import type { loader } from "~/root";

/** The root loader's data (language, theme, toasts, signed-in user); undefined only if it failed. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}
