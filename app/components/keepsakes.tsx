import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useRevalidator } from "react-router";
import { formatDay, numberFormat } from "~/utils/intl-formats";
import type { ExportSummary, KeepsakeView } from "~/utils/keep-schema";
import { useRootData } from "~/utils/root-data";

/** Where an export form posts (a download, or a redirect back when the export is queued). */
const EXPORT_ACTION = "/dashboard/keep/export";

/** "12.5 MB" / "800 KB", in the page's language. */
export function useSize() {
  const { t, i18n } = useTranslation("keep");
  const format = numberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (bytes: number) => {
    return bytes >= 1024 * 1024
      ? t("size.mb", { value: format.format(bytes / (1024 * 1024)) })
      : t("size.kb", { value: format.format(Math.max(1, Math.round(bytes / 1024))) });
  };
}

function useDate() {
  const { i18n } = useTranslation("keep");
  const timeZone = useRootData()?.timeZone ?? "UTC";
  return (iso: string) => formatDay(i18n.language, iso, timeZone, "long");
}

/**
 * What an export holds, said before downloading, and its button: a plain form post (the zip
 * downloads, or a large one is queued and the page shows its progress). `reloadDocument` keeps it
 * a real post with JavaScript too, so the browser handles the download.
 */
export function ExportCard({
  summary,
  storytellerId,
  limitMb,
}: {
  summary: ExportSummary;
  storytellerId?: string;
  limitMb: number;
}) {
  const { t } = useTranslation("keep");
  const size = useSize();
  return (
    <section
      aria-labelledby="export-heading"
      className="flex flex-col gap-3 rounded-xl border border-line bg-panel p-6"
    >
      <h2 id="export-heading" className="text-lg font-semibold">
        {t("export.heading")}
      </h2>
      <p>{storytellerId ? t("export.lead") : t("export.leadEverything")}</p>
      <h3 className="font-medium">{t("export.contains")}</h3>
      <ul className="list-disc ps-6">
        <li>{t("export.answers", { count: summary.answers })}</li>
        <li>{t("export.transcripts", { count: summary.withTranscript })}</li>
        <li>{t("export.questions")}</li>
        {summary.photos ? <li>{t("export.photos", { count: summary.photos })}</li> : null}
        <li>{t("export.index")}</li>
        <li>{t("export.manifest")}</li>
      </ul>
      {summary.answers === 0 ? <p className="text-muted">{t("export.empty")}</p> : null}
      <p className="text-muted">
        {storytellerId
          ? t("export.privateLeftOut")
          : summary.private
            ? t("export.privateIncluded", { count: summary.private })
            : null}
      </p>
      <p className="text-muted">
        {t("export.size", { size: size(summary.estimatedBytes) })}{" "}
        {t("export.large", { limit: size(limitMb * 1024 * 1024) })}
      </p>
      <form method="post" action={EXPORT_ACTION}>
        {storytellerId ? (
          <>
            <input type="hidden" name="scope" value="storyteller" />
            <input type="hidden" name="storytellerId" value={storytellerId} />
          </>
        ) : (
          <input type="hidden" name="scope" value="everything" />
        )}
        <button type="submit" className="btn-primary">
          {t("export.submit")}
        </button>
      </form>
    </section>
  );
}

/** The user's exports and books with their state; while one is being made, the page refreshes itself (with JS) or offers a reload link. */
export function KeepsakeList({ keepsakes }: { keepsakes: KeepsakeView[] }) {
  const { t } = useTranslation("keep");
  const size = useSize();
  const date = useDate();
  const busy = keepsakes.some((keepsake) => keepsake.status === "queued" || keepsake.status === "building");
  const revalidator = useRevalidator();
  const location = useLocation();
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [busy, revalidator]);
  return (
    <section
      aria-labelledby="keepsakes-heading"
      className="flex flex-col gap-3 rounded-xl border border-line bg-panel p-6"
    >
      <h2 id="keepsakes-heading" className="text-lg font-semibold">
        {t("list.heading")}
      </h2>
      {keepsakes.length === 0 ? <p className="text-muted">{t("list.none")}</p> : null}
      <ul className="flex flex-col gap-2">
        {keepsakes.map((keepsake) => (
          <li key={keepsake.id} className="flex flex-wrap items-center gap-x-3 gap-y-1" data-keepsake={keepsake.status}>
            <span className="font-medium">
              {t(keepsake.print ? "list.print" : keepsake.kind === "book" ? "list.book" : "list.export")}
              {keepsake.storytellerId ? "" : ` · ${t("list.everything")}`}
            </span>
            <span className="text-sm text-muted">{t("list.requested", { date: date(keepsake.createdAt) })}</span>
            <span role="status">
              {keepsake.status === "queued"
                ? t("list.queued")
                : keepsake.status === "building"
                  ? t("list.building", { progress: keepsake.progress })
                  : keepsake.status === "failed"
                    ? t(keepsake.error === "no-chromium" ? "list.noChromium" : "list.failed")
                    : keepsake.downloadable
                      ? t("list.ready", { size: size(keepsake.byteSize ?? 0), date: date(keepsake.expiresAt!) })
                      : t("list.expired")}
            </span>
            {keepsake.downloadable ? (
              <a href={`/dashboard/keep/${keepsake.id}/download`} className="btn-secondary" download>
                {t(keepsake.print ? "list.downloadPrint" : "list.download")}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
      {busy ? (
        <a href={location.pathname} className="self-start underline">
          {t("list.refresh")}
        </a>
      ) : null}
    </section>
  );
}
