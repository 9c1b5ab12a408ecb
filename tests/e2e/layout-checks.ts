import type { Page } from "@playwright/test";

/** WCAG 2.5.5's target size, which every control is held to (decision 053). */
export const MIN_TARGET = 44;

/**
 * "200% text size" as a browser's text size setting sets it: the default font size doubles (16 px to
 * 32 px), and every size given in rem or em with it. Works with or without JavaScript, and on the page
 * already shown too: it lays itself out again at once, as when a reader changes the setting.
 */
export async function scaleText(page: Page, scale: number) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Page.setFontSizes", { fontSizes: { standard: 16 * scale, fixed: 13 * scale } });
}

/**
 * Every control a finger can use inside `scope` now: what is too small or sticks out, and whether
 * the page scrolls sideways. A link inside a sentence is tapped as text (WCAG's inline exception),
 * and a visually hidden one (a skip link until focused) is not a target.
 */
export async function layoutProblems(page: Page, scope = "main") {
  return page.evaluate(
    ({ minimum, scope }) => {
      const problems: string[] = [];
      const width = document.documentElement.clientWidth;
      const describe = (element: Element) =>
        `${element.tagName.toLowerCase()}.${String(element.getAttribute("class") ?? "").slice(0, 60)}`;
      if (document.documentElement.scrollWidth > width)
        problems.push(
          `scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`,
          ...[...document.querySelectorAll<HTMLElement>("body *")]
            .filter((element) => element.getBoundingClientRect().right > width + 0.5)
            .map((element) => `${describe(element)} is too wide`),
        );
      const inSentence = (control: HTMLElement) => {
        if (control.tagName !== "A" || getComputedStyle(control).display !== "inline") return false;
        const block = control.parentElement;
        return Boolean(block && (block.textContent ?? "").trim().length > (control.textContent ?? "").trim().length);
      };
      const controls = document.querySelectorAll<HTMLElement>(
        ["a[href]", "button", "input", "select", "textarea", "summary", "audio[controls]"]
          .map((kind) => `${scope} ${kind}`)
          .join(", "),
      );
      for (const control of controls) {
        // A control counts only when shown; an input in a label is tapped through its label.
        if (!control.getClientRects().length || getComputedStyle(control).visibility === "hidden") continue;
        if (control instanceof HTMLInputElement && control.type === "hidden") continue;
        // A closed disclosure's content still has boxes in Chromium (content-visibility), but no one sees it.
        if (control.closest("[hidden], [inert]")) continue;
        const disclosure = control.closest("details");
        if (disclosure && !disclosure.open && control.tagName !== "SUMMARY") continue;
        const target =
          control instanceof HTMLInputElement && ["checkbox", "radio"].includes(control.type)
            ? (control.closest("label") ?? control)
            : control;
        const box = target.getBoundingClientRect();
        // Visually hidden, or parked off the screen until focused (the skip link).
        if (box.width <= 1 || box.height <= 1 || box.bottom <= 0 || inSentence(control)) continue;
        const name = `${control.tagName.toLowerCase()} "${(control.textContent || control.getAttribute("aria-label") || control.getAttribute("name") || "").trim().slice(0, 40)}"`;
        if (box.width < minimum - 0.5 || box.height < minimum - 0.5)
          problems.push(`${name} is ${Math.round(box.width)} × ${Math.round(box.height)}`);
        if (box.left < -0.5 || box.right > width + 0.5)
          problems.push(`${name} sticks out: ${Math.round(box.left)}–${Math.round(box.right)}`);
      }
      return problems;
    },
    { minimum: MIN_TARGET, scope },
  );
}
