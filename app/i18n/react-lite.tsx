// What "react-i18next" is in this app: in the browser bundle, the server's rendering, the tests and
// tsc (app/i18n/alias.ts, tsconfig.json; decisions 026, 029, 034). Only what is exported here exists
// (no `Trans`), and `t` takes only the options lite.ts implements.
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from "react";
import type { LiteI18n } from "~/i18n/lite";

const I18nContext = createContext<LiteI18n | null>(null);

export function I18nextProvider({ i18n, children }: { i18n: LiteI18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

export function useTranslation(ns?: string | string[]) {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation outside I18nextProvider");
  const language = useSyncExternalStore(
    i18n.subscribe,
    () => i18n.language,
    () => i18n.language,
  );
  const namespaces = ns === undefined ? ["common"] : [ns].flat();
  const key = namespaces.join("|");
  // A namespace this page did not embed (a client-side navigation to another screen) is fetched
  // while the navigation's transition keeps the previous page on screen, as react-i18next does.
  const missing = namespaces.filter((name) => !i18n.hasLoadedNamespace(name));
  if (missing.length) throw i18n.loadNamespaces(missing);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `namespaces`
  const t = useMemo(() => i18n.getFixedT(namespaces), [i18n, key, language]);
  return { t, i18n, ready: true };
}
