import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LanguageSwitch } from "~/components/language-switch";
import { Logo } from "~/components/logo";
import { ThemeSettingsPanel } from "~/components/theme-settings-panel";
import { useRootData } from "~/utils/root-data";
import { useScrolledPast } from "~/utils/use-scrolled-past";

export function PublicHeader() {
  const { t } = useTranslation();
  const signedIn = Boolean(useRootData()?.user);
  const scrolled = useScrolledPast(100);
  return (
    // Sticky only where the screen is at least 20em wide: at 200% text a phone is 11em wide, and
    // the top bar's rows (a third of the screen) would stay over the page.
    <header
      data-scrolled={scrolled}
      className="relative top-0 z-30 min-[20em]:sticky border-b border-transparent bg-surface transition-all data-[scrolled=true]:border-line data-[scrolled=true]:bg-panel/95 data-[scrolled=true]:shadow-md"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4 max-[830px]:py-2">
        <Logo />
        {/* On phones the language and Display go to a row of their own, so the header is two rows, not three. */}
        <div className="flex flex-wrap items-center gap-2 sm:ms-auto max-sm:order-last max-sm:basis-full max-sm:justify-end">
          <LanguageSwitch />
          <ThemeSettingsPanel />
        </div>
        <nav aria-label={t("nav.account")} className="flex flex-wrap items-center gap-2">
          {signedIn ? (
            <Link to="/dashboard" className="btn-primary">
              {t("nav.goToDashboard")}
            </Link>
          ) : (
            <>
              <Link to="/auth/login" className="btn-secondary">
                {t("nav.login")}
              </Link>
              <Link to="/auth/register" className="btn-primary">
                {t("nav.register")}
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
