import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { AddGroupLink } from "~/components/add-group-dialog";
import { Logo } from "~/components/logo";
import { useCloseOnNavigate } from "~/utils/use-close-on-navigate";

type Counts = { storytellers: number; myStories: number };

function SidebarLink({ to, label, count, end }: { to: string; label: string; count?: number; end?: boolean }) {
  return (
    <NavLink
      to={to}
      end={end}
      className="flex min-h-11 items-center justify-between rounded-md px-3 py-2 text-sm hover:bg-line/60 aria-[current=page]:bg-primary aria-[current=page]:text-white"
    >
      <span>{label}</span>
      {count !== undefined ? <span className="rounded-full bg-line px-2 text-xs text-ink">{count}</span> : null}
    </NavLink>
  );
}

function SidebarLinks({ counts, appName }: { counts: Counts; appName: string }) {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="mt-4 px-3 text-xs font-semibold uppercase tracking-wide text-muted">{appName}</h2>
      <SidebarLink to="/dashboard" end label={t("nav.storytellers")} count={counts.storytellers} />
      <SidebarLink to="/dashboard/mystories" label={t("nav.myStories")} count={counts.myStories} />
      <SidebarLink to="/dashboard/timeline" label={t("nav.timeline")} />
      <h2 className="mt-4 px-3 text-xs font-semibold uppercase tracking-wide text-muted">{t("nav.groupAbout")}</h2>
      <SidebarLink to="/privacy-policy" label={t("nav.privacy")} />
      <SidebarLink to="/terms-and-conditions" label={t("nav.terms")} />
      <SidebarLink to="/about-us" label={t("nav.about")} />
      <h2 className="mt-4 px-3 text-xs font-semibold uppercase tracking-wide text-muted">{t("nav.groupCreate")}</h2>
      <SidebarLink to="/dashboard/onboarding" label={t("nav.addStoryteller")} />
      <AddGroupLink className="flex min-h-11 items-center justify-between rounded-md px-3 py-2 text-sm hover:bg-line/60" />
      <SidebarLink to="/dashboard/testpage" label={t("nav.testPage")} />
    </>
  );
}

/** 200 px sidebar on wide screens; a disclosure menu (no JavaScript needed) on narrow ones. */
export function DashboardSidebar({ counts, appName }: { counts: Counts; appName: string }) {
  const menuRef = useCloseOnNavigate();
  const { t } = useTranslation();
  return (
    <>
      <nav
        aria-label={t("nav.dashboard")}
        className="sticky top-0 hidden h-screen w-[200px] shrink-0 flex-col gap-1 overflow-y-auto border-e border-line bg-panel p-3 min-[900px]:flex"
      >
        <Logo to="/dashboard" />
        <SidebarLinks counts={counts} appName={appName} />
      </nav>
      <details ref={menuRef} className="border-b border-line bg-panel min-[900px]:hidden">
        <summary className="cursor-pointer px-4 py-3 text-sm font-semibold">{t("nav.menu")}</summary>
        <nav aria-label={t("nav.dashboard")} className="flex flex-col gap-1 px-3 pb-3">
          <SidebarLinks counts={counts} appName={appName} />
        </nav>
      </details>
    </>
  );
}
