import { useTranslation } from "react-i18next";
import { useTimeForYou } from "~/components/time-zone-chooser";
import type { Toast } from "~/utils/toast";

/**
 * Toasts rendered by the server from the flash cookie: top right, at most 5, gone after 3 s.
 * The fade is a CSS animation, so it works without JavaScript too.
 */
export function Toaster({ toasts }: { toasts: Toast[] }) {
  const { t } = useTranslation();
  if (!toasts.length) return null;
  // Under the top bar on wide screens, at the bottom on phones: over nothing one taps.
  return (
    <section
      aria-label={t("a11y.toasts")}
      className="pointer-events-none fixed end-4 top-20 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2 max-sm:inset-x-4 max-sm:top-auto max-sm:bottom-4 max-sm:w-auto"
    >
      {toasts.slice(-5).map((toast) => (
        <p
          key={toast.id}
          role={toast.type === "error" ? "alert" : "status"}
          data-type={toast.type}
          className="toast rounded-lg border border-line bg-panel px-4 py-3 text-sm shadow-lg"
        >
          <ToastText toast={toast} />
        </p>
      ))}
    </section>
  );
}

/** A toast's words; one that names a moment (`at`) adds the reader's own time once the browser says it (`…ForYou`). */
function ToastText({ toast }: { toast: Toast }) {
  const { t, i18n } = useTranslation();
  const yourTime = useTimeForYou(typeof toast.values?.at === "string" ? toast.values.at : null, i18n.language);
  return yourTime ? t(`${toast.key}ForYou`, { ...toast.values, yourTime }) : t(toast.key, toast.values);
}
