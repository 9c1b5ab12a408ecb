// The translator pages render with, in the browser (decision 026) and on the server (decision 029):
// the subset of i18next this app uses, in about 1 KB instead of i18next's 14 KB. Loaders, emails and
// jobs keep real i18next; `lite.test.ts` holds this one to the same output for every key of every
// namespace in both languages.
//
// What it does: nested keys ("a.b"), "ns:key", a list of namespaces searched in order, `{{name}}`
// interpolation (unescaped: React escapes) with default variables, plurals by `count` (`_zero`, then
// the language's plural category, then the bare key) and `returnObjects`. What it leaves out: context,
// nesting ($t), formatting, fallback languages (each page embeds its language's namespaces in full).

type Bundle = Record<string, unknown>;

/** One per language: building Intl.PluralRules costs more than many lookups, and counts are per row. */
const pluralRulesByLanguage = new Map<string, Intl.PluralRules>();
function pluralRules(language: string): Intl.PluralRules {
  let rules = pluralRulesByLanguage.get(language);
  if (!rules) pluralRulesByLanguage.set(language, (rules = new Intl.PluralRules(language)));
  return rules;
}

/**
 * i18next options this translator does not implement: typed `never`, so passing one fails `tsc`
 * instead of rendering the wrong string.
 */
type Unsupported =
  | "context"
  | "defaultValue"
  | "fallbackLng"
  | "interpolation"
  | "joinArrays"
  | "keyPrefix"
  | "lng"
  | "lngs"
  | "ns"
  | "ordinal"
  | "postProcess"
  | "replace";
/** Interpolation values, plus `count` (plurals) and `returnObjects`. */
export type TOptions = { count?: number; returnObjects?: boolean } & { [option in Unsupported]?: never } & Record<
    string,
    unknown
  >;
export type TFunction = {
  /** A subtree (list or object) of the namespace, interpolated: the caller says its shape. */
  (key: string, options: TOptions & { returnObjects: true }): unknown;
  (key: string, options?: TOptions): string;
};

export type LiteI18n = {
  language: string;
  options: { interpolation: { defaultVariables: Record<string, string> } };
  getResourceBundle: (lng: string, ns: string) => Bundle | undefined;
  hasLoadedNamespace: (ns: string) => boolean;
  loadNamespaces: (namespaces: string[]) => Promise<void>;
  changeLanguage: (lng: string) => Promise<void>;
  getFixedT: (namespaces: string[]) => TFunction;
  subscribe: (listener: () => void) => () => void;
};

type Init = {
  lng: string;
  resources: Record<string, Bundle>;
  variables?: Record<string, string>;
  /** Where a missing namespace is fetched from: "/locales/{{lng}}/{{ns}}". */
  loadPath?: string;
  fetch?: (url: string) => Promise<Bundle>;
};

const VARIABLE = /\{\{(.+?)\}\}/g;

function lookup(bundle: Bundle | undefined, key: string): unknown {
  if (!bundle) return undefined;
  if (Object.hasOwn(bundle, key)) return bundle[key];
  let value: unknown = bundle;
  for (const part of key.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) return undefined;
    value = (value as Bundle)[part];
  }
  return value;
}

export function createLiteI18n({ lng, resources, variables = {}, loadPath, fetch: fetchBundle }: Init): LiteI18n {
  const store: Record<string, Record<string, Bundle>> = { [lng]: { ...resources } };
  const listeners = new Set<() => void>();
  const pending = new Map<string, Promise<void>>();
  const load = (language: string, ns: string) => {
    if (store[language]?.[ns]) return Promise.resolve();
    const id = `${language}/${ns}`;
    let promise = pending.get(id);
    if (!promise) {
      const url = (loadPath ?? "/locales/{{lng}}/{{ns}}").replace("{{lng}}", language).replace("{{ns}}", ns);
      const get = fetchBundle ?? ((address: string) => fetch(address).then((r) => r.json() as Promise<Bundle>));
      promise = get(url)
        .then(
          (bundle) => {
            (store[language] ??= {})[ns] = bundle;
          },
          () => {
            (store[language] ??= {})[ns] = {}; // keys show as keys, as i18next does when a load fails
          },
        )
        .finally(() => pending.delete(id));
      pending.set(id, promise);
    }
    return promise;
  };
  const notify = () => listeners.forEach((listener) => listener());

  const interpolate = (text: string, options: TOptions) =>
    text.replace(VARIABLE, (match, name: string) => {
      const key = name.trim();
      const value = Object.hasOwn(options, key) ? options[key] : variables[key];
      if (value === undefined) return Object.hasOwn(options, key) ? "" : match;
      return typeof value === "string" ? value : JSON.stringify(value);
    });

  const deepInterpolate = (value: unknown, options: TOptions): unknown => {
    if (typeof value === "string") return interpolate(value, options);
    if (Array.isArray(value)) return value.map((item) => deepInterpolate(item, options));
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepInterpolate(v, options)]));
    return value;
  };

  const i18n: LiteI18n = {
    language: lng,
    options: { interpolation: { defaultVariables: variables } },
    getResourceBundle: (language, ns) => store[language]?.[ns],
    hasLoadedNamespace: (ns) => Boolean(store[i18n.language]?.[ns]),
    loadNamespaces: async (namespaces) => {
      await Promise.all(namespaces.map((ns) => load(i18n.language, ns)));
    },
    changeLanguage: async (language) => {
      if (language === i18n.language) return;
      await Promise.all(Object.keys(store[i18n.language] ?? {}).map((ns) => load(language, ns)));
      i18n.language = language;
      notify();
    },
    getFixedT:
      (namespaces) =>
      (fullKey: string, options: TOptions = {}): string => {
        const separator = fullKey.indexOf(":");
        const [searched, key] =
          separator > 0 ? [[fullKey.slice(0, separator)], fullKey.slice(separator + 1)] : [namespaces, fullKey];
        const keys = [key];
        if (typeof options.count === "number") {
          keys.unshift(`${key}_${pluralRules(i18n.language).select(options.count)}`);
          if (options.count === 0) keys.unshift(`${key}_zero`);
        }
        const values = { count: options.count, ...options };
        if (options.count === undefined) delete values.count;
        for (const ns of searched) {
          for (const candidate of keys) {
            const found = lookup(store[i18n.language]?.[ns], candidate);
            if (typeof found === "string") return interpolate(found, values);
            if (found !== undefined && found !== null && options.returnObjects)
              return deepInterpolate(found, values) as string; // TFunction's first overload: unknown
          }
        }
        return key;
      },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return i18n;
}
