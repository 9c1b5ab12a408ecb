import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function PublicFooter() {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 border-t border-line bg-panel">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-muted min-[830px]:flex-row min-[830px]:items-center min-[830px]:justify-between">
        <p>{t("tagline")}</p>
        <nav aria-label={t("nav.footer")} className="flex flex-wrap gap-x-4 gap-y-2">
          <Link to="/privacy-policy" className="link inline-flex min-h-11 min-w-11 items-center justify-center">
            {t("nav.privacy")}
          </Link>
          <Link to="/terms-and-conditions" className="link inline-flex min-h-11 min-w-11 items-center justify-center">
            {t("nav.terms")}
          </Link>
          <Link to="/about-us" className="link inline-flex min-h-11 min-w-11 items-center justify-center">
            {t("nav.about")}
          </Link>
          <Link to="/faqs" className="link inline-flex min-h-11 min-w-11 items-center justify-center">
            {t("nav.faqs")}
          </Link>
          <Link to="/contact-us" className="link inline-flex min-h-11 min-w-11 items-center justify-center">
            {t("nav.contact")}
          </Link>
          <Link to="/registered-texts" className="link inline-flex min-h-11 min-w-11 items-center justify-center">
            {t("nav.registeredTexts")}
          </Link>
        </nav>
      </div>
    </footer>
  );
}
