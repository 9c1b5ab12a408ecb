import { useTranslation } from "react-i18next";
import { useActionData, useLoaderData } from "react-router";
import { data, type HeadersFunction } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs, ActionArgs } from "~/context.server";
import { getServerT } from "~/i18n/i18next.server";
import {
  capabilityPageHeaders,
  storytellerForUnsubscribeToken,
  unsubscribeStoryteller,
} from "~/models/capability-links.server";
import { titleFromLoader } from "~/utils/meta";

// Opened from an email by a Storyteller, often on a basic phone: server markup and a plain form, no
// React in the browser (see app/root.tsx "standalone"), like the record and share pages.
export const handle = { i18n: ["delivery"], standalone: true };
export const meta = titleFromLoader;
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

/** GET only shows what will stop: mail scanners open links, and opening must change nothing. */
export async function loader({ request, context, params }: LoaderArgs) {
  const t = await getServerT(request, context, "delivery");
  const storyteller = await storytellerForUnsubscribeToken(context, params.token!);
  const title = `${t("unsubscribe.title")} · ${context.config.APP_NAME}`;
  if (!storyteller) return data({ title, found: false as const }, { status: 404, headers: capabilityPageHeaders });
  return data(
    {
      title,
      found: true as const,
      address: storyteller.email ?? "",
      askerName: storyteller.asker_name,
      already: Boolean(storyteller.unsubscribed_at),
    },
    { headers: capabilityPageHeaders },
  );
}

/**
 * The page's button and RFC 8058 one-click (mail clients POST "List-Unsubscribe=One-Click" with no
 * cookie; the path is exempt from the CSRF check, the signed token is the authority). Both get the
 * page saying "Unsubscribed successfully" (or "Unsubscription failed" with a 404).
 */
export async function action({ context, params }: ActionArgs) {
  const storyteller = await storytellerForUnsubscribeToken(context, params.token!);
  if (!storyteller) return data({ ok: false as const }, { status: 404, headers: capabilityPageHeaders });
  await unsubscribeStoryteller(context, storyteller.id);
  return data({ ok: true as const }, { headers: capabilityPageHeaders });
}

export default function Unsubscribe() {
  const { t } = useTranslation("delivery");
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!page.found || result?.ok === false) {
    return (
      <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-8 text-lg">
        <h1 className="text-2xl font-bold min-[24em]:text-3xl">{t("unsubscribe.failed")}</h1>
        <p>{t("unsubscribe.failedDetail")}</p>
      </main>
    );
  }
  const vars = { address: page.address, asker: page.askerName };
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-8 text-lg">
      {result?.ok || page.already ? (
        <>
          <div role="status">
            <h1 className="text-2xl font-bold min-[24em]:text-3xl">
              {result?.ok ? t("unsubscribe.success") : t("unsubscribe.already")}
            </h1>
            <p>{t("unsubscribe.successDetail", vars)}</p>
          </div>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-bold min-[24em]:text-3xl">{t("unsubscribe.title")}</h1>
          <p>{t("unsubscribe.lead", vars)}</p>
          <p className="text-muted">{t("unsubscribe.whatStops")}</p>
          <form method="post">
            <button type="submit" className="btn-primary px-6 py-3 text-lg">
              {t("unsubscribe.button")}
            </button>
          </form>
        </>
      )}
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
