import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { LanguageSwitch } from "~/components/language-switch";
import { NotificationBell } from "~/components/notification-bell";
import { ThemeSettingsPanel } from "~/components/theme-settings-panel";
import { useCloseOnNavigate } from "~/utils/use-close-on-navigate";
import { useScrolledPast } from "~/utils/use-scrolled-past";

type TopbarUser = { firstName: string; email: string };

export function DashboardTopbar({ user, unread }: { user: TopbarUser; unread: number }) {
  const menuRef = useCloseOnNavigate();
  const { t } = useTranslation();
  const scrolled = useScrolledPast(100);
  return (
    // Sticky only where the screen is at least 20em wide: at 200% text a phone is 11em wide, and
    // the top bar's rows (a third of the screen) would stay over the page.
    <header
      data-scrolled={scrolled}
      className="relative top-0 z-30 min-[20em]:sticky flex flex-wrap items-center justify-end gap-x-3 gap-y-1 border-b border-line bg-surface px-4 py-2 transition-all data-[scrolled=true]:bg-panel/95 data-[scrolled=true]:shadow-md"
    >
      <LanguageSwitch />
      <ThemeSettingsPanel />
      <NotificationBell unread={unread} />
      {/* Below 640 px the menus open under the whole top bar (it is their containing block), not off its edge. */}
      <details ref={menuRef} className="relative max-sm:static">
        <summary
          className="flex min-h-11 min-w-11 cursor-pointer list-none items-center justify-center rounded-full p-1 hover:bg-line/60"
          aria-label={t("a11y.userMenu")}
        >
          <span
            className="flex h-8 w-8 items-center justify-center rounded-full bg-primary font-semibold text-white"
            aria-hidden="true"
          >
            {user.firstName.slice(0, 1).toUpperCase()}
          </span>
        </summary>
        <div className="absolute end-0 z-40 mt-2 w-56 rounded-lg border border-line bg-panel p-2 shadow-xl max-sm:inset-x-2 max-sm:top-full max-sm:mt-1 max-sm:w-auto">
          <p className="px-2 pt-1 font-semibold">{user.firstName}</p>
          <p className="truncate px-2 pb-2 text-sm text-muted">{user.email}</p>
          <Link to="/dashboard" className="flex min-h-11 items-center rounded px-2 text-sm hover:bg-line/60">
            {t("nav.home")}
          </Link>
          <Link
            to="/dashboard/user/account"
            className="flex min-h-11 items-center rounded px-2 text-sm hover:bg-line/60"
          >
            {t("nav.settings")}
          </Link>
          <Form method="post" action="/auth/logout">
            <button type="submit" className="min-h-11 w-full rounded px-2 text-start text-sm hover:bg-line/60">
              {t("nav.logout")}
            </button>
          </Form>
        </div>
      </details>
    </header>
  );
}
