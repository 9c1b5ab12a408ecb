import { createCookie } from "react-router";
import { RemixI18Next } from "remix-i18next/server";
import { type Config, servesHttps } from "~/config.server";
import {
  fallbackLanguage,
  i18nOptions,
  isSupportedLanguage,
  type SupportedLanguage,
  supportedLanguages,
  type TextVariables,
} from "./config";
import { resources } from "./resources.server";

/** The visitor's language choice. Not signed: it only picks a language. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

/** The language cookie's Set-Cookie value (`Secure` when the site is served over https). */
export const serializeLanguage = (language: string, config: Pick<Config, "APP_URL">) =>
  languageCookie.serialize(language, { secure: servesHttps(config) });

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: languageCookie,
    // ?lng= (links and tests), then the saved choice, then the browser's Accept-Language.
    order: ["searchParams", "cookie", "header"],
  },
  i18next: { ...i18nOptions({ appName: "Heirloom", appUrl: "" }), resources },
});

type NamedInstall = { config: Pick<Config, "APP_NAME" | "APP_URL"> };

export function textVariables(context: NamedInstall): TextVariables {
  return { appName: context.config.APP_NAME, appUrl: context.config.APP_URL };
}

type ServerT = Awaited<ReturnType<typeof i18nServer.getFixedT>>;
// getFixedT builds and initialises a fresh i18next instance on every call; the result depends only
// on these inputs, so one per combination is kept (a handful: languages × namespaces).
const fixedTs = new Map<string, Promise<ServerT>>();

/** A translate function for loaders, actions and jobs, with this install's name and address. */
export async function getServerT(
  localeOrRequest: string | Request,
  context: NamedInstall,
  ns = "common",
): Promise<ServerT> {
  const requested = typeof localeOrRequest === "string" ? localeOrRequest : await i18nServer.getLocale(localeOrRequest);
  const locale = (supportedLanguages as readonly string[]).includes(requested) ? requested : fallbackLanguage;
  const key = `${locale}\u0000${ns}\u0000${context.config.APP_NAME}\u0000${context.config.APP_URL}`;
  let t = fixedTs.get(key);
  if (!t) {
    t = i18nServer.getFixedT(locale, ns, {
      interpolation: { escapeValue: false, defaultVariables: textVariables(context) },
    });
    fixedTs.set(key, t);
  }
  return t;
}

/** The language this request's page is shown in (the reader's), as a supported language. */
export async function readerLanguage(request: Request): Promise<SupportedLanguage> {
  const locale = await i18nServer.getLocale(request);
  return isSupportedLanguage(locale) ? locale : fallbackLanguage;
}
