import { useTranslation } from "react-i18next";
import { useMatches } from "react-router";

export const I18N_DATA_ELEMENT_ID = "i18n-resources";

type Match = ReturnType<typeof useMatches>[number];

/** A route's translation namespaces: a list, or a function of the match (for pages chosen by a param). */
export type NamespaceHandle = { i18n?: string | string[] | ((match: Pick<Match, "params">) => string[]) };

/** Namespaces the matched routes declare with `handle: { i18n }`, plus "common". */
function useRouteNamespaces(): string[] {
  const matches = useMatches();
  const namespaces = new Set<string>(["common"]);
  for (const match of matches) {
    const declared = (match.handle as NamespaceHandle | undefined)?.i18n ?? [];
    for (const ns of [typeof declared === "function" ? declared(match) : declared].flat()) namespaces.add(ns);
  }
  return [...namespaces];
}

/**
 * Puts this page's translations into the HTML so the browser hydrates without fetching them.
 * A JSON script is data, not code, so the CSP does not apply to it.
 */
export function EmbeddedTranslations() {
  const { i18n } = useTranslation();
  const namespaces = useRouteNamespaces();
  const resources = Object.fromEntries(namespaces.map((ns) => [ns, i18n.getResourceBundle(i18n.language, ns) ?? {}]));
  const variables = i18n.options.interpolation?.defaultVariables;
  const json = JSON.stringify({ resources, variables }).replace(/</g, "\\u003c");
  return (
    <script
      id={I18N_DATA_ELEMENT_ID}
      type="application/json"
      dangerouslySetInnerHTML={{ __html: json }}
      suppressHydrationWarning
    />
  );
}
