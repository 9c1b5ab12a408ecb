import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  isRouteErrorResponse,
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
} from "react-router";
import { carriesSessionCookie } from "~/auth/session.server";
import { fallbackLanguage, isSupportedLanguage, type SupportedLanguage, type TextVariables } from "~/i18n/config";
import { i18nServer, textVariables } from "~/i18n/i18next.server";
import { createLiteI18n, type LiteI18n } from "~/i18n/lite";
import { resources } from "~/i18n/resources.server";
import { log } from "~/services/logger.server";
import { NonceContext } from "~/utils/nonce";

const ABORT_DELAY = 5_000;
/** What a signed-in page (it can hold live share links) says to every cache, the browser's included. */
const PRIVATE_PAGE = "private, no-store";

/**
 * One translator per language (and install name/address), made once and shared by every render:
 * rendering only reads from it. It is the browser's own lite translator ("react-i18next" resolves to
 * app/i18n/react-lite.tsx everywhere, decisions 029, 034), so the server and the hydrating browser
 * give the same strings; i18next's per-call work was a tenth of the server's time under load.
 */
const translators = new Map<string, LiteI18n>();
function renderingTranslator(lng: SupportedLanguage, variables: TextVariables): LiteI18n {
  const key = `${lng}\u0000${variables.appName}\u0000${variables.appUrl}`;
  let translator = translators.get(key);
  if (!translator) {
    translator = createLiteI18n({ lng, resources: resources[lng], variables });
    translators.set(key, translator);
  }
  return translator;
}
export const streamTimeout = ABORT_DELAY;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The root loader decides the language (it may know more than the request, e.g. a profile choice).
  const rootData = routerContext.staticHandlerContext.loaderData?.root as { locale?: string } | undefined;
  const lng = rootData?.locale ?? (await i18nServer.getLocale(request));
  const i18n = renderingTranslator(isSupportedLanguage(lng) ? lng : fallbackLanguage, textVariables(loadContext));

  if (await carriesSessionCookie(request, loadContext)) responseHeaders.set("Cache-Control", PRIVATE_PAGE);

  const nonce = loadContext.cspNonce;

  // The whole document, sent in one write with its length. Nothing on our pages is deferred, so the
  // shell is the page: streaming it sent the same bytes as many small chunks through a Node stream,
  // a web stream and chunked encoding (decision 059). A page that defers data (React Router's Await)
  // would wait here for all of it.
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const collected = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={i18n}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          collected.on("finish", () => {
            clearTimeout(timer);
            const html = Buffer.concat(chunks);
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.set("Content-Length", String(html.byteLength));
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          });
          pipe(collected);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reach handleError (React Router renders again with the boundary).
          if (!shellRendered) return;
          // A browser that left mid-render is not a server error.
          if (request.signal.aborted) log.debug({ err: error }, "the browser left while the page rendered");
          else log.error({ err: error }, "render failed after the page's shell");
        },
      },
    );
    // React renders from the next turn on, so its callbacks above always find the timer set.
    const timer = setTimeout(abort, ABORT_DELAY + 1000);
  });
}

/** A page's data fetched by client-side navigation: as private as the page when signed in. */
export const handleDataRequest: HandleDataRequestFunction = async (response, { request, context }) => {
  if (!(await carriesSessionCookie(request, context))) return response;
  // A redirect's headers are immutable; a copy's are not.
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", PRIVATE_PAGE);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

/**
 * Errors in loaders, actions and rendering, logged once with their stack (the error boundary shows
 * the page; the request line has the path). Not errors: a request the browser abandoned, a thrown
 * Response, a 4xx route error (no such route, no action).
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted || error instanceof Response) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const cause = isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error) : error;
  log.error({ err: cause }, "request failed");
};
