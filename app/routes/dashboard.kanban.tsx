import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import { requireUser } from "~/auth/session.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { LoaderArgs } from "~/context.server";
import { BOARD_MAX_COLUMNS, getBoard } from "~/models/storyteller.server";
import { formatDay } from "~/utils/intl-formats";
import { titleFromLoader } from "~/utils/meta";
import { pageTitle } from "~/utils/page-title.server";
import { useRootData } from "~/utils/root-data";

export const handle = { i18n: ["storytellers"] };
export const meta = titleFromLoader;

export async function loader({ request, context }: LoaderArgs) {
  const user = await requireUser(request, context);
  return {
    title: await pageTitle(request, context, "board.title", "storytellers"),
    maxColumns: BOARD_MAX_COLUMNS,
    ...(await getBoard(context.db, user.id)),
  };
}

export default function Board() {
  const { t } = useTranslation("storytellers");
  const { columns, hiddenColumns, maxColumns } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en";
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">{t("board.title")}</h1>
      {hiddenColumns > 0 ? (
        <p className="rounded-lg border border-line bg-panel p-3">
          {t("board.tooMany", { max: maxColumns, count: hiddenColumns })}{" "}
          <Link to="/dashboard" className="link">
            {t("board.seeAll")}
          </Link>
        </p>
      ) : null}
      {columns.length === 0 ? <p className="text-muted">{t("board.empty")}</p> : null}
      <div className="flex gap-4 overflow-x-auto pb-4">
        {columns.map((column) => {
          // One formatter per column (its zone), from the process-wide cache: one per card was most
          // of the board's CPU.
          return (
            <section
              key={column.id}
              aria-labelledby={`column-${column.id}`}
              className="w-72 shrink-0 rounded-xl border border-line bg-panel p-3"
              data-testid="board-column"
            >
              <h2 id={`column-${column.id}`} className="mb-3 font-semibold">
                <Link to={`/dashboard/recipient/${column.id}`} className="link-target">
                  {column.nickname}
                </Link>
              </h2>
              <ul className="flex flex-col gap-2">
                {column.cards.map((card, index) => {
                  // Dates in the Storyteller's own zone: the day it reaches them.
                  const when = card.at ? formatDay(locale, card.at, column.time_zone) : null;
                  return (
                    <li
                      // The cards are a fixed list per load, never reordered in place.
                      key={index}
                      className="rounded-lg border border-line bg-surface p-2 text-sm"
                      data-state={card.state}
                    >
                      <p>{card.text}</p>
                      <p className="mt-1 text-xs text-muted">
                        {card.state === "queued"
                          ? when
                            ? t("board.sendsOn", { when })
                            : column.paused
                              ? t("board.paused")
                              : t("board.queued")
                          : `${t("board.sentOn", { when })} · ${t(`board.state.${card.state}`)}`}
                      </p>
                    </li>
                  );
                })}
              </ul>
              {column.more > 0 ? (
                <p className="mt-2 text-sm">
                  <Link to={`/dashboard/recipient/${column.id}`} className="link-target">
                    {t("board.more", { count: column.more, name: column.nickname })}
                  </Link>
                </p>
              ) : null}
            </section>
          );
        })}
      </div>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
