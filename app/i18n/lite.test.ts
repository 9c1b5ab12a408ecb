import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { i18nOptions, supportedLanguages } from "~/i18n/config";
import { createLiteI18n } from "~/i18n/lite";
import { resources } from "~/i18n/resources.server";

// The browser's translator must give exactly the server's strings, or hydration would not match.
const variables = { appName: "Heirloom Test", appUrl: "https://heirloom.test" };
type Tree = Record<string, unknown>;

/** Every key of a namespace, as t() is called with it (plural forms by their base key). */
function keysOf(tree: Tree, prefix = ""): { key: string; object: boolean }[] {
  return Object.entries(tree).flatMap(([name, value]) => {
    const key = `${prefix}${name}`;
    const base = key.replace(/_(zero|one|two|few|many|other)$/, "");
    const own = { key: base, object: Boolean(value && typeof value === "object") };
    return value && typeof value === "object" && !Array.isArray(value)
      ? [own, ...keysOf(value as Tree, `${key}.`)]
      : [own];
  });
}

const samples = [
  {},
  { count: 0 },
  { count: 1 },
  { count: 2 },
  { count: 21 },
  { name: "Asha", email: "a@example.com", group: "Nani's <stories>", nickname: "Nani", count: 3 },
  { returnObjects: true },
];

describe.each(supportedLanguages)("the lite translator in %s", (lng) => {
  it("gives i18next's string for every key of every namespace", async () => {
    const server = createInstance();
    await server.init({ ...i18nOptions(variables), lng, resources, fallbackLng: false });
    const bundles = resources[lng] as Record<string, Tree>;
    const lite = createLiteI18n({ lng, resources: bundles, variables });
    let compared = 0;
    for (const ns of Object.keys(bundles)) {
      const serverT = server.getFixedT(lng, ns);
      const liteT = lite.getFixedT([ns]);
      for (const { key, object } of keysOf(bundles[ns])) {
        for (const options of samples) {
          if (object && !options.returnObjects) continue;
          expect(liteT(key, options), `${lng} ${ns}:${key} ${JSON.stringify(options)}`).toEqual(
            serverT(key, options as never),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("searches namespaces in order and honours ns:key", async () => {
    const server = createInstance();
    await server.init({ ...i18nOptions(variables), lng, resources, fallbackLng: false });
    const lite = createLiteI18n({ lng, resources: resources[lng] as Record<string, Tree>, variables });
    const serverT = server.getFixedT(lng, ["storytellers", "common"]);
    const liteT = lite.getFixedT(["storytellers", "common"]);
    for (const key of ["nav.addGroup", "common:nav.addGroup", "groups:new.title", "no.such.key"])
      expect(liteT(key)).toEqual(serverT(key));
  });
});

describe("loading", () => {
  it("fetches a namespace once, and a language switch loads what the page uses", async () => {
    const urls: string[] = [];
    const lite = createLiteI18n({
      lng: "en",
      resources: { common: { hello: "Hello" } },
      loadPath: "/locales/{{lng}}/{{ns}}",
      fetch: async (url) => {
        urls.push(url);
        return url.endsWith("/hi/common") ? { hello: "नमस्ते" } : { title: url };
      },
    });
    await Promise.all([lite.loadNamespaces(["home"]), lite.loadNamespaces(["home"])]);
    expect(urls).toEqual(["/locales/en/home"]);
    let heard = 0;
    lite.subscribe(() => heard++);
    await lite.changeLanguage("hi");
    expect(urls).toEqual(["/locales/en/home", "/locales/hi/common", "/locales/hi/home"]);
    expect(lite.getFixedT(["common"])("hello")).toBe("नमस्ते");
    expect(heard).toBe(1);
  });
});
