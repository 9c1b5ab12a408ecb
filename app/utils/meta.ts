import type { MetaFunction } from "react-router";
import { isRouteErrorResponse } from "react-router";

type RootMetaData = { appName?: string; errorTitles?: Record<"notFound" | "serverError" | "maintenance", string> };
type Matches = Parameters<MetaFunction>[0]["matches"];

/** The title of an error page, translated by the root loader (meta functions cannot translate). */
export function errorPageTitle(matches: Matches, error: unknown) {
  const root = matches.find((match) => match.id === "root")?.data as RootMetaData | undefined;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const key = status === 404 ? "notFound" : status === 503 ? "maintenance" : "serverError";
  const appName = root?.appName ?? "Heirloom";
  return [{ title: root?.errorTitles ? `${root.errorTitles[key]} · ${appName}` : appName }];
}

/** meta() for routes whose loader returns `{ title }`. */
export const titleFromLoader: MetaFunction = ({ data, error, matches }) => {
  const title = (data as { title?: string } | undefined)?.title;
  return title && !error ? [{ title }] : errorPageTitle(matches, error);
};
