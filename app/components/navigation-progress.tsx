import { useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** A slim bar across the top while a page loads or a form submits. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy = navigation.state !== "idle";
  return (
    <div
      role="progressbar"
      aria-label={t("a11y.loading")}
      aria-hidden={!busy}
      data-state={navigation.state}
      className="nav-progress pointer-events-none fixed inset-x-0 top-0 z-50 h-1"
    />
  );
}
