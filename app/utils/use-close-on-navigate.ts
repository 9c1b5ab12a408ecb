import { useLocation } from "react-router";
import { useEffect, useRef } from "react";

/** A <details> menu stays open across client-side navigations unless told otherwise: close it. */
export function useCloseOnNavigate<T extends HTMLDetailsElement>() {
  const ref = useRef<T>(null);
  const location = useLocation();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  return ref;
}
