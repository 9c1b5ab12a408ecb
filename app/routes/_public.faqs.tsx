import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { type ContentSection, ContentPage } from "~/components/content-page";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const handle = { i18n: ["faqs"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { title: await pageTitle(request, context, "title", "faqs") };
}

export default function Faqs() {
  const { t } = useTranslation("faqs");
  return (
    <ContentPage
      title={t("title")}
      intro={t("intro")}
      sections={t("sections", { returnObjects: true }) as ContentSection[]}
    />
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
