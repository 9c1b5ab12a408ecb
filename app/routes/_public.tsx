import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PublicFooter } from "~/components/public-footer";
import { PublicHeader } from "~/components/public-header";
import type { LoaderArgs } from "~/context.server";
import { standaloneScript } from "~/utils/standalone-scripts.server";

/**
 * The public pages are whole HTML with plain forms, served without React (app/root.tsx): their only
 * script styles the header on scroll. Decision 026.
 */
export const handle = { standalone: true };

export function loader({ context }: LoaderArgs) {
  return { scripts: [standaloneScript(context.config, "public-page")] };
}

function PublicShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="skip-link">
        {t("a11y.skipToContent")}
      </a>
      <PublicHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}

export default function PublicLayout() {
  return (
    <PublicShell>
      <Outlet />
    </PublicShell>
  );
}

export function ErrorBoundary() {
  return (
    <PublicShell>
      <GeneralErrorBoundary />
    </PublicShell>
  );
}
