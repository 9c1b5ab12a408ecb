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
 * Holds a client-side navigation until every namespace its routes declare is loaded. A component's
 * own `useTranslation(ns)` loads `ns`, but a key named with another namespace ("keep:keepLink")
 * only finds it loaded when the route's handle got it here; otherwise the key showed raw.
 */
export function useRouteTranslations() {
  const { i18n } = useTranslation();
  const missing = useRouteNamespaces().filter((ns) => !i18n.hasLoadedNamespace(ns));
  // Thrown during the navigation's transition: the previous page stays until the text is here.
  if (missing.length) throw i18n.loadNamespaces(missing);
}

type Translator = ReturnType<typeof useTranslation>["i18n"];
// The server renders with one translator per language that never changes (entry.server.tsx): the
// JSON for a set of namespaces is the same on every page that uses it, so it is made once. (The
// browser's translator gains namespaces as it goes; it builds the JSON each time, rarely.)
const made = new WeakMap<Translator, Map<string, string>>();

function embeddedJson(i18n: Translator, namespaces: string[]): string {
  const onServer = typeof document === "undefined";
  const key = `${i18n.language}\u0000${namespaces.join(",")}`;
  let byNamespaces = made.get(i18n);
  const known = byNamespaces?.get(key);
  if (known !== undefined) return known;
  const resources = Object.fromEntries(namespaces.map((ns) => [ns, i18n.getResourceBundle(i18n.language, ns) ?? {}]));
  const variables = i18n.options.interpolation?.defaultVariables;
  const json = JSON.stringify({ resources, variables }).replace(/</g, "\\u003c");
  if (!onServer) return json;
  if (!byNamespaces) made.set(i18n, (byNamespaces = new Map()));
  byNamespaces.set(key, json);
  return json;
}

/**
 * Puts this page's translations into the HTML so the browser hydrates without fetching them.
 * A JSON script is data, not code, so the CSP does not apply to it.
 */
export function EmbeddedTranslations() {
  const { i18n } = useTranslation();
  const namespaces = useRouteNamespaces();
  const json = embeddedJson(i18n, namespaces);
  return (
    <script
      id={I18N_DATA_ELEMENT_ID}
      type="application/json"
      dangerouslySetInnerHTML={{ __html: json }}
      suppressHydrationWarning
    />
  );
}
