import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type ContentSection, ContentPage } from "~/components/content-page";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

export const handle = { i18n: ["registered-texts"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  return { title: await pageTitle(request, context, "title", "registered-texts") };
}

export default function RegisteredTexts() {
  const { t } = useTranslation("registered-texts");
  const samples = t("samples", { returnObjects: true }) as string[];
  return (
    <ContentPage
      title={t("title")}
      intro={t("intro")}
      sections={t("sections", { returnObjects: true }) as ContentSection[]}
    >
      <section className="mb-8">
        <h2 className="mb-3 text-xl font-semibold">{t("samplesTitle")}</h2>
        <ul className="space-y-3">
          {samples.map((sample) => (
            <li key={sample} className="rounded-xl border border-line bg-panel p-4 leading-relaxed">
              {sample}
            </li>
          ))}
        </ul>
      </section>
      <p>
        <Link to="/privacy-policy" className="link-target">
          {t("privacyLink")}
        </Link>
      </p>
    </ContentPage>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
