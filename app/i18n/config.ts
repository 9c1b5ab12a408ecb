export const supportedLanguages = ["en", "hi"] as const;
export type SupportedLanguage = (typeof supportedLanguages)[number];
export const fallbackLanguage: SupportedLanguage = "en";

export const languageNames: Record<SupportedLanguage, string> = { en: "English", hi: "हिन्दी" };

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);
}

/** Values every string may use: the product's name and address are the self-hoster's (APP_NAME, APP_URL). */
export type TextVariables = { appName: string; appUrl: string };

/** Shared by the server and browser i18next instances. */
export function i18nOptions(variables: TextVariables) {
  return {
    supportedLngs: [...supportedLanguages],
    fallbackLng: fallbackLanguage,
    defaultNS: "common",
    interpolation: { escapeValue: false, defaultVariables: variables }, // React escapes
  };
}
