import enCommon from "../../locales/en/common.json";
import enPages from "../../locales/en/pages.json";
import hiCommon from "../../locales/hi/common.json";
import hiPages from "../../locales/hi/pages.json";

/** Every translation, bundled into the server build (no file reads at request time). */
export const resources = {
  en: { common: enCommon, pages: enPages },
  hi: { common: hiCommon, pages: hiPages },
} as const;

export type Namespace = keyof (typeof resources)["en"];
