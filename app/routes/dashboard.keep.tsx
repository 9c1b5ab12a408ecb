import { useTranslation } from "react-i18next";
import { useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ExportCard, KeepsakeList } from "~/components/keepsakes";
import type { LoaderArgs } from "~/context.server";
import { exportSummary } from "~/models/keepsake-archive.server";
import { listKeepsakes } from "~/models/keepsake.server";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";

// "Everything I can hear" (decision 023), reached from the account page: the export of every answer
// the user may hear (their own private ones included) and the list of all their exports and books.
export const handle = { i18n: ["keep"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  const [summary, keepsakes] = await Promise.all([
    exportSummary(context.db, user.id, { kind: "everything" }),
    listKeepsakes(context.db, user.id),
  ]);
  return {
    title: await pageTitle(request, context, "everythingTitle", "keep"),
    summary: summary!,
    keepsakes,
    limitMb: context.config.EXPORT_STREAM_MAX_MB,
  };
}

export default function KeepEverything() {
  const { t } = useTranslation("keep");
  const { summary, keepsakes, limitMb } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-2xl font-bold">{t("everythingTitle")}</h1>
        <p className="text-muted">{t("intro")}</p>
      </header>
      <KeepsakeList keepsakes={keepsakes} />
      <ExportCard summary={summary} limitMb={limitMb} />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
