import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "react-router";
import { data, type LinksFunction, type MetaFunction, redirect } from "react-router";
import { getSessionUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { NavigationProgress } from "~/components/navigation-progress";
import { Toaster } from "~/components/toaster";
import type { LoaderArgs } from "~/context.server";
import { EmbeddedTranslations, useRouteTranslations } from "~/i18n/embedded-resources";
import { getServerT, i18nServer, serializeLanguage } from "~/i18n/i18next.server";
import { takeToasts } from "~/services/toast.server";
import stylesheet from "~/tailwind.css?url";
import { readerTimeZone } from "~/utils/intl-formats";
import { errorPageTitle } from "~/utils/meta";
import { useNonce } from "~/utils/nonce";
import { useRootData } from "~/utils/root-data";
import { defaultThemeSettings } from "~/utils/theme";
import { getThemeSettings } from "~/utils/theme.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) =>
  error ? errorPageTitle(matches, error) : [{ title: data?.appName ?? "Heirloom" }];

export async function loader({ request, context }: LoaderArgs) {
  const [user, theme, locale, { toasts, setCookie }] = await Promise.all([
    getSessionUser(request, context),
    getThemeSettings(request),
    i18nServer.getLocale(request),
    takeToasts(request, context),
  ]);
  // One language per person: a signed-in user's is their account's (emails and exports use it too).
  // A browser that remembers another (switched on another device, or before signing in) learns it
  // and asks again, so every loader of the page reads the same one. ?lng= is a link's own choice.
  const url = new URL(request.url);
  if (user && user.language !== locale && request.method === "GET" && !url.searchParams.has("lng"))
    throw redirect(url.pathname + url.search, {
      headers: { "Set-Cookie": await serializeLanguage(user.language, context.config) },
    });
  const t = await getServerT(locale, context);
  return data(
    {
      locale,
      theme,
      toasts,
      appName: context.config.APP_NAME,
      errorTitles: {
        notFound: t("errors.notFound.title"),
        serverError: t("errors.serverError.title"),
        maintenance: t("errors.maintenance.title"),
      },
      user: user ? { firstName: user.first_name, email: user.email, nickname: user.nickname } : null,
      // Dates are written in the reader's zone on the server and in the browser alike (decision 069).
      timeZone: user ? readerTimeZone(user) : "UTC",
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

/**
 * A route whose handle says `{ standalone: true }` is served without React in the browser: its page
 * is complete HTML (toasts included), and its loader's `scripts` (our own small bundles) are all the
 * JavaScript it gets. The record page uses this to stay far under its budget on basic phones, and the
 * public pages (`_public.tsx`) to need almost none (decision 026).
 *
 * Only a document the server renders is standalone: a page reached by a client-side navigation from
 * a page that has React (a dashboard link to the FAQ) keeps the router's scripts it already runs.
 */
/** The stylesheet's text when the standalone page's loader inlines it (`inlineStyles`), else null. */
function useInlineStyles(): string | null {
  const match = useMatches().findLast((m) => (m.handle as { standalone?: boolean } | undefined)?.standalone);
  if (!match || typeof document !== "undefined") return null;
  return (match.data as { inlineStyles?: string | null } | undefined)?.inlineStyles ?? null;
}

function useStandaloneScripts(): string[] | null {
  const match = useMatches().findLast((m) => (m.handle as { standalone?: boolean } | undefined)?.standalone);
  if (!match || typeof document !== "undefined") return null;
  return (match.data as { scripts?: string[] } | undefined)?.scripts ?? [];
}

/**
 * Adds the page's scripts, kept inert in a <template>, once the page has painted (a frame, then a
 * task): the markup paints first (decision 055). Clones of a template's scripts run when added.
 */
const AFTER_FIRST_PAINT =
  'requestAnimationFrame(function(){setTimeout(function(){var t=document.getElementById("after-paint");document.body.appendChild(document.importNode(t.content,true))})})';

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRootData();
  const standaloneScripts = useStandaloneScripts();
  const inlineStyles = useInlineStyles();
  const { i18n } = useTranslation();
  const nonce = useNonce();
  const theme = rootData?.theme ?? defaultThemeSettings;
  const locale = rootData?.locale ?? i18n.language ?? "en";
  return (
    <html
      lang={locale}
      dir="ltr"
      data-text-size={theme.textSize}
      data-mode={theme.mode}
      data-color={theme.color}
      className={theme.mode === "dark" ? "dark" : undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {inlineStyles ? (
          <>
            <style nonce={nonce} dangerouslySetInnerHTML={{ __html: inlineStyles }} />
            <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          </>
        ) : (
          <Links />
        )}
      </head>
      <body className="min-h-screen bg-surface text-ink antialiased">
        {standaloneScripts ? (
          <>
            {children}
            <Toaster toasts={rootData?.toasts ?? []} />
            {standaloneScripts.length ? (
              // Its scripts after the first paint: the question and the file form show first (the
              // record page's LCP); a script in the page ran before first paint and counted against it.
              <>
                <template id="after-paint">
                  {standaloneScripts.map((src) => (
                    <script key={src} type="module" src={src} nonce={nonce} />
                  ))}
                </template>
                <script nonce={nonce} dangerouslySetInnerHTML={{ __html: AFTER_FIRST_PAINT }} />
              </>
            ) : null}
          </>
        ) : (
          <>
            <NavigationProgress />
            {children}
            <Toaster toasts={rootData?.toasts ?? []} />
            <EmbeddedTranslations />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  // After a language switch (a form post and redirect), the browser's translator follows the server.
  const locale = useRootData()?.locale ?? "en";
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [i18n, locale]);
  useRouteTranslations();
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main id="main">
      <GeneralErrorBoundary />
    </main>
  );
}
