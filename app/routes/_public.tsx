import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PublicFooter } from "~/components/public-footer";
import { PublicHeader } from "~/components/public-header";

/**
 * Public pages (landing, legal, FAQ, contact, sign-in) are served without React in the browser:
 * every form on them is a plain post, so they need no JavaScript, and a first visit downloads
 * none (decision 026). Their children inherit this.
 */
export const handle = { hydrate: false };

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
