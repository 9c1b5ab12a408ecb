import { type ReactNode, useLayoutEffect } from "react";

/**
 * React 18 hydrates a `<textarea>` by setting its value back to the server's text (react-dom's
 * textarea postMountWrapper; inputs and selects keep theirs). On a slow phone someone can open a form
 * and type before the scripts arrive: their words vanished at hydration, and Save then stored the old
 * ones. This reads what was typed just before hydrating; `restore` puts it back once hydration is
 * done, as typing (a native value and an input event), so any state that follows the box follows it.
 */
export function textTypedBeforeHydration(root: ParentNode) {
  const typed = Array.from(root.querySelectorAll("textarea"))
    .filter((box) => box.value !== box.defaultValue)
    .map((box) => ({ box, value: box.value }));
  return function restore() {
    const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set;
    for (const { box, value } of typed) {
      if (!box.isConnected || box.value === value || !setValue) continue;
      setValue.call(box, value);
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
  };
}

/** Runs `restore` once the tree inside it has hydrated: its layout effect runs after its children's. */
export function AfterHydration({ restore, children }: { restore: () => void; children: ReactNode }) {
  useLayoutEffect(() => restore(), [restore]);
  return children;
}
