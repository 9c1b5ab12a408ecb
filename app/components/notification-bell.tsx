import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRevalidator } from "react-router";
import { formatDay, relativeTimeFormat } from "~/utils/intl-formats";
import { BellIntent, type NotificationView } from "~/utils/notifications";
import { useRootData } from "~/utils/root-data";
import { useOpenUntilNavigate } from "~/utils/use-close-on-navigate";
import { useHydrated } from "~/utils/use-hydrated";

const KNOWN_TYPES = new Set([
  "new",
  "uploaded",
  "story",
  "message",
  "skipped",
  "listened",
  "queue_empty",
  "export_ready",
  "book_ready",
]);

/** Where a notification leads: an answer (or her skip, or her opening) to that question on the Sent tab, a sent question to the queue, an empty queue to adding questions; anything else nowhere. */
function notificationTarget(item: Pick<NotificationView, "type" | "storytellerId" | "promptId">): string | null {
  // A finished export or book: the page that lists it (the Storyteller's, or "everything").
  if (item.type === "export_ready" || item.type === "book_ready")
    return item.storytellerId ? `/dashboard/recipient/${item.storytellerId}/keep` : "/dashboard/keep";
  if (!item.storytellerId) return null;
  const storyteller = `/dashboard/recipient/${item.storytellerId}`;
  switch (item.type) {
    case "uploaded":
    case "story":
    case "skipped":
    case "listened":
      return `${storyteller}?sent=true${item.promptId ? `#prompt-${item.promptId}` : ""}`;
    case "new":
    case "message":
      return storyteller;
    case "queue_empty":
      return `${storyteller}/prompts/new`;
    default:
      return null;
  }
}

/** "3 hours ago", from the server's clock (so the server's and the browser's render agree). */
function useAgo(now: string) {
  const { t } = useTranslation();
  const rootData = useRootData();
  const relative = relativeTimeFormat(rootData?.locale ?? "en");
  return (iso: string) => {
    const seconds = Math.max(0, (Date.parse(now) - Date.parse(iso)) / 1000);
    if (seconds < 60) return t("notifications.justNow");
    if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), "minute");
    if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), "hour");
    if (seconds < 30 * 86_400) return relative.format(-Math.floor(seconds / 86_400), "day");
    return formatDay(rootData?.locale ?? "en", iso, rootData?.timeZone ?? "UTC");
  };
}

/** One notification's text, prompt and time; a link to its target when it has one. */
export function NotificationEntry({
  item,
  now,
  onNavigate,
  onDismiss,
}: {
  item: NotificationView;
  now: string;
  onNavigate?: () => void;
  onDismiss?: () => void;
}) {
  const { t } = useTranslation();
  const ago = useAgo(now);
  const target = notificationTarget(item);
  const text = t(`notifications.types.${KNOWN_TYPES.has(item.type) ? item.type : "unknown"}`, {
    name: item.nickname ?? "",
  });
  const body = (
    <>
      <span className="flex items-center gap-2">
        {item.isNew ? (
          <span
            className="shrink-0 rounded-full bg-primary px-2 text-xs font-semibold text-white"
            data-testid="unread-marker"
          >
            {t("notifications.unread")}
          </span>
        ) : null}
        <span className="font-medium">{text}</span>
      </span>
      {item.promptText ? (
        <span className="mt-0.5 line-clamp-2 block text-sm text-muted">“{item.promptText}”</span>
      ) : null}
      <time dateTime={item.createdAt} className="mt-0.5 block text-xs text-muted">
        {ago(item.createdAt)}
      </time>
    </>
  );
  const className = "block w-full rounded-lg px-3 py-2 text-start hover:bg-line/60";
  if (target) {
    return (
      <Link to={target} className={className} onClick={onNavigate}>
        {body}
      </Link>
    );
  }
  return onDismiss ? (
    <button type="button" className={className} onClick={onDismiss}>
      {body}
    </button>
  ) : (
    <div className={className}>{body}</div>
  );
}

type ListData = { ok: boolean; items: NotificationView[]; now: string };
type MarkData = { ok: boolean; marked: number };

const RESOURCE = "/resources/notifications";

function BellIcon({ unread }: { unread: number }) {
  return (
    <>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="currentColor">
        <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
      </svg>
      {unread > 0 ? (
        <span
          className="absolute -end-0.5 -top-0.5 rounded-full bg-red-700 px-1.5 text-xs text-white"
          aria-hidden="true"
          data-testid="unread-badge"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </>
  );
}

const failedList = (): ListData => ({ ok: false, items: [], now: new Date().toISOString() });

/**
 * The popover's items, fetched as plain JSON when it opens, outside React Router: a router fetcher
 * to a resource route waits for route discovery (/__manifest) and takes part in the router's
 * navigations, and "See all" clicked meanwhile raced it. A request still running
 * when the popover closes (See all, a link, Escape) is aborted and its answer ignored.
 */
function useNotificationList(open: boolean) {
  const [data, setData] = useState<ListData | null>(null);
  const [loading, setLoading] = useState(false);
  // The ids this opening showed as unread: the server has them read once shown, and the list reloads.
  const [shownNew, setShownNew] = useState<ReadonlySet<string>>(() => new Set());
  const request = useRef<AbortController | null>(null);
  const load = useCallback(() => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setLoading(true);
    fetch(RESOURCE, { signal: controller.signal, headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<ListData>) : failedList()))
      .catch(failedList)
      .then((result) => {
        if (controller.signal.aborted) return;
        const ids = result.items.filter((item) => item.isNew).map((item) => item.id);
        if (ids.length) setShownNew((before) => new Set([...before, ...ids]));
        setData(result);
        setLoading(false);
      });
  }, []);
  const forgetShown = useCallback(() => setShownNew(new Set()), []);
  // Closed, or gone: the answer would land on nothing.
  useEffect(() => {
    if (!open) request.current?.abort();
  }, [open]);
  useEffect(() => () => request.current?.abort(), []);
  return { data, loading, load, shownNew, forgetShown };
}

/**
 * The top bar's bell. Without JavaScript (and until hydration) a link to /dashboard/notifications;
 * with it, a disclosure button for a 360 px popover whose items are fetched only when it opens.
 * Opening marks the shown unread items read through a POST; the badge and counts change only when
 * the server has answered (then the page's loaders revalidate and the list reloads), never optimistically.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [open, setOpen] = useOpenUntilNavigate();
  const list = useNotificationList(open);
  const revalidator = useRevalidator();
  const [marking, setMarking] = useState(false);
  const [markFailed, setMarkFailed] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const lastMarked = useRef("");
  const panelId = useId();
  const headingId = useId();
  const label = t("notifications.bellLabel", { count: unread });

  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);

  // A click outside closes it (focus stays where the click put it); Escape closes it and returns focus.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open, setOpen]);

  // Marks read, then (answered either way) refreshes the badge and the list from the server.
  const { load, data, loading, shownNew, forgetShown } = list;
  const { revalidate } = revalidator;
  const markRead = useCallback(
    (form: URLSearchParams) => {
      setMarking(true);
      setMarkFailed(false);
      fetch(RESOURCE, { method: "POST", body: form, headers: { Accept: "application/json" } })
        .then((response) => response.json() as Promise<MarkData>)
        .then((result) => result.ok)
        .catch(() => false)
        .then((ok) => {
          setMarking(false);
          setMarkFailed(!ok);
          void revalidate();
          load();
        });
    },
    [load, revalidate],
  );

  // The shown unread items are marked read once they have loaded; the same set is never sent twice.
  useEffect(() => {
    if (!open || loading || !data?.ok) return;
    const ids = data.items.filter((item) => item.isNew).map((item) => item.id);
    const key = ids.join(",");
    if (!ids.length || key === lastMarked.current) return;
    lastMarked.current = key;
    const form = new URLSearchParams({ intent: BellIntent.markShown });
    for (const id of ids) form.append("id", id);
    markRead(form);
  }, [open, loading, data, markRead]);

  const close = (returnFocus = true) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  if (!hydrated) {
    return (
      <Link
        to="/dashboard/notifications"
        className="relative flex size-11 items-center justify-center rounded-full hover:bg-line/60"
        aria-label={label}
      >
        <BellIcon unread={unread} />
      </Link>
    );
  }

  const items = (data?.items ?? []).slice(0, 5);
  // Opening marks what it shows read, and the list reloads: what was new when this opening showed it
  // stays under "New" and counted as unread in the summary, until "Mark all as read" or it closes.
  const isNew = (item: NotificationView) => item.isNew || shownNew.has(item.id);
  const newShown = items.filter(isNew).length;
  const moreUnread = Math.max(0, unread - items.filter((item) => item.isNew).length);
  const sections = [
    { key: "newSection", items: items.filter(isNew) },
    { key: "earlierSection", items: items.filter((item) => !isNew(item)) },
  ].filter((section) => section.items.length);

  return (
    <div
      ref={wrapper}
      className="relative max-sm:static"
      onBlur={(event) => {
        // Tabbing out of the popover closes it.
        if (open && event.relatedTarget && !event.currentTarget.contains(event.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="relative flex size-11 items-center justify-center rounded-full hover:bg-line/60"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          if (open) return close();
          setOpen(true);
          forgetShown();
          load();
        }}
      >
        <BellIcon unread={unread} />
      </button>
      <section
        ref={panel}
        id={panelId}
        hidden={!open}
        tabIndex={-1}
        aria-labelledby={headingId}
        className="absolute end-0 z-40 mt-2 w-[360px] max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-panel p-3 shadow-xl outline-none max-sm:inset-x-2 max-sm:top-full max-sm:mt-1 max-sm:w-auto max-sm:max-w-none"
      >
        <div className="flex items-start justify-between gap-3 px-1">
          <div>
            <h2 id={headingId} className="font-semibold">
              {t("notifications.title")}
            </h2>
            <p className="text-sm text-muted" data-testid="unread-summary">
              {t("notifications.unreadSummary", { count: newShown + moreUnread })}
            </p>
          </div>
          <button
            type="button"
            className="link shrink-0 text-sm"
            disabled={newShown + moreUnread === 0 || marking}
            onClick={() => {
              forgetShown();
              markRead(new URLSearchParams({ intent: BellIntent.markAll }));
            }}
          >
            {t("notifications.markAllRead")}
          </button>
        </div>
        {markFailed ? (
          <p role="alert" className="mt-2 px-1 text-sm text-danger">
            {t("notifications.markFailed")}
          </p>
        ) : null}
        {!data || (loading && !data.ok) ? (
          <p role="status" className="px-1 py-3 text-sm text-muted">
            {t("notifications.loading")}
          </p>
        ) : !data.ok ? (
          <p role="alert" className="px-1 py-3 text-sm text-danger">
            {t("notifications.loadFailed")}
          </p>
        ) : !items.length ? (
          <p className="px-1 py-3 text-sm text-muted">{t("notifications.empty")}</p>
        ) : (
          sections.map((section) => (
            <div key={section.key} className="mt-3">
              <h3 className="px-1 text-xs font-semibold uppercase tracking-wide text-muted">
                {t(`notifications.${section.key}`)}
              </h3>
              <ul className="mt-1 flex flex-col gap-1" data-testid={`notifications-${section.key}`}>
                {section.items.map((item) => (
                  <li key={item.id}>
                    <NotificationEntry
                      item={item}
                      now={data.now}
                      onNavigate={() => setOpen(false)}
                      onDismiss={() => close()}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
        <div className="mt-3 border-t border-line px-1 pt-2">
          <Link to="/dashboard/notifications" className="link text-sm" onClick={() => setOpen(false)}>
            {moreUnread > 0 ? t("notifications.seeAllUnread", { count: moreUnread }) : t("notifications.seeAll")}
          </Link>
        </div>
      </section>
    </div>
  );
}
