export const supportedLanguages = ["en", "hi"] as const;
export type SupportedLanguage = (typeof supportedLanguages)[number];
export const fallbackLanguage: SupportedLanguage = "en";

export const languageNames: Record<SupportedLanguage, string> = { en: "English", hi: "हिन्दी" };

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);
}

/** Shared by the server and browser i18next instances. */
export const i18nOptions = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: "common",
  interpolation: { escapeValue: false }, // React escapes
};
