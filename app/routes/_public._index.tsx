import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { useRootData } from "~/utils/root-data";

export const handle = { i18n: ["home"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  return { title: await pageTitle(request, context, "metaTitle", "home") };
}

type Card = { title: string; body: string };

export default function Landing() {
  const { t } = useTranslation("home");
  const signedIn = Boolean(useRootData()?.user);
  const steps = t("steps", { returnObjects: true }) as Card[];
  const features = t("features", { returnObjects: true }) as Card[];
  return (
    <>
      <section className="mx-auto max-w-6xl px-4 py-20 text-center max-[830px]:py-12">
        <h1 className="mx-auto max-w-3xl text-5xl font-bold leading-tight max-[830px]:text-3xl">{t("heroTitle")}</h1>
        <p className="mx-auto mt-6 max-w-2xl text-xl text-muted max-[830px]:text-lg">{t("heroBody")}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to={signedIn ? "/dashboard" : "/auth/register"} className="btn-primary text-lg">
            {signedIn ? t("ctaDashboard") : t("ctaPrimary")}
          </Link>
          <Link to="/faqs" className="btn-secondary text-lg">
            {t("ctaSecondary")}
          </Link>
        </div>
      </section>

      <section aria-labelledby="how-it-works" className="bg-panel py-16">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="how-it-works" className="mb-10 text-center text-3xl font-bold">
            {t("howTitle")}
          </h2>
          <ol className="grid gap-6 min-[830px]:grid-cols-3">
            {steps.map((step, index) => (
              <li key={step.title} className="rounded-xl border border-line bg-surface p-6">
                <span
                  className="mb-3 flex h-10 w-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-white"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <h3 className="mb-2 text-xl font-semibold">{step.title}</h3>
                <p className="text-muted">{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="features" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="features" className="mb-10 text-center text-3xl font-bold">
          {t("featuresTitle")}
        </h2>
        <ul className="grid gap-6 min-[830px]:grid-cols-2">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-xl border border-line bg-panel p-6">
              <h3 className="mb-2 text-lg font-semibold">{feature.title}</h3>
              <p className="text-muted">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="mx-auto max-w-3xl px-4 pb-8 text-center">
        <h2 className="mb-3 text-2xl font-bold">{t("closingTitle")}</h2>
        <p className="mb-6 text-muted">{t("closingBody")}</p>
        <Link to={signedIn ? "/dashboard" : "/auth/register"} className="btn-primary">
          {signedIn ? t("ctaDashboard") : t("ctaPrimary")}
        </Link>
      </section>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
