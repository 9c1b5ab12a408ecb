import { readFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "~/config.server";

const cache = new Map<string, string | null>();

/**
 * The built stylesheet's text, for a page that inlines it instead of linking it (the record page,
 * decision 039: one round trip less before the question shows on slow 4G). Null while developing
 * (Vite serves the stylesheet itself) or when the build has no such file: the page then links it.
 */
export function inlineStylesheet(config: Pick<Config, "NODE_ENV">, href: string): string | null {
  if (config.NODE_ENV === "development") return null;
  if (!cache.has(href)) {
    let text: string | null = null;
    try {
      // A `</style>` inside the CSS would end the element early.
      text = readFileSync(path.resolve("build/client", `.${href}`), "utf8").replace(/<\/(style)/gi, "<\\/$1");
    } catch {
      text = null;
    }
    cache.set(href, text);
  }
  return cache.get(href) ?? null;
}
