import { createCookie } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import { fallbackLanguage, i18nOptions, supportedLanguages } from "./config";
import { resources } from "./resources.server";

/** The visitor's language choice. Not signed: it only picks a language. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: languageCookie,
    // ?lng= (links and tests), then the saved choice, then the browser's Accept-Language.
    order: ["searchParams", "cookie", "header"],
  },
  i18next: { ...i18nOptions, resources },
});
