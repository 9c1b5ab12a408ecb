import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * A <details> menu stays open across client-side navigations unless told otherwise: close it. Not
 * on hydration: a menu opened while the page's scripts were still loading stays open.
 */
export function useCloseOnNavigate<T extends HTMLDetailsElement>() {
  const ref = useRef<T>(null);
  const location = useLocation();
  const shownAt = useRef(location.key);
  useEffect(() => {
    if (shownAt.current === location.key) return;
    shownAt.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  return ref;
}

/**
 * Open/closed state for a popover or dialog that closes on its own when the page moves on (a
 * successful post redirects): it is open only at the location where it was opened.
 */
export function useOpenUntilNavigate() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const setOpen = useCallback((next: boolean) => setOpenAt(next ? locationKeyNow(location.key) : null), [location.key]);
  return [open, setOpen] as const;
}

/**
 * The key of the page the browser is at now. React Router moves the address (and history.state)
 * before it draws the new page, so a press in between, on a slow phone, would open the popover at
 * the page being left and it would never show.
 */
function locationKeyNow(rendered: string): string {
  const state = window.history.state as { key?: unknown } | null;
  return typeof state?.key === "string" ? state.key : rendered;
}
