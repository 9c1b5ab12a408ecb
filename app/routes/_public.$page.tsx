import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { type ContentSection, ContentPage } from "~/components/content-page";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import type { NamespaceHandle } from "~/i18n/embedded-resources";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

/** The long-form public pages: path → translation namespace (locales/{en,hi}/<namespace>.json). */
const contentPages: Record<string, string> = {
  "privacy-policy": "privacy",
  "terms-and-conditions": "terms",
  "about-us": "about",
  faqs: "faqs",
};

const namespaceOf = (page: string | undefined) =>
  page && Object.hasOwn(contentPages, page) ? contentPages[page] : undefined;

export const handle: NamespaceHandle = { i18n: ({ params }) => [namespaceOf(params.page) ?? "common"] };
export const meta = titleFromLoader;

export async function loader({ request, context, params }: LoaderArgs) {
  const ns = namespaceOf(params.page);
  // Any other single-segment path is an unknown page: the 404 page, in place.
  if (!ns) throw new Response(null, { status: 404, statusText: "Not Found" });
  return { title: await pageTitle(request, context, "title", ns) };
}

export default function PublicContentPage() {
  const ns = namespaceOf(useParams().page)!;
  const { t } = useTranslation(ns);
  return (
    <ContentPage
      title={t("title")}
      intro={t("intro")}
      sections={t("sections", { returnObjects: true }) as ContentSection[]}
    />
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
