import path from "node:path";
import type { Page } from "@playwright/test";
import { createAnswer } from "../factories";
import { expect, test } from "./fixtures";
import { newOwner, sentQuestion } from "./recording-helpers";

// Issue 11, item 3: the record page on a small, old phone. At 320 px wide, at 200% text size and in
// landscape: nothing scrolls sideways, every control is at least 44 × 44 px (for a checkbox, its
// label: the whole label is what a finger taps), and all of them fit the screen.

const fixtureWebm = path.resolve("tests/fixtures/recording-3s.webm");
const MIN_TARGET = 44;

const screens = [
  { name: "320 px portrait", viewport: { width: 320, height: 568 }, textScale: 1 },
  { name: "320 px portrait at 200% text", viewport: { width: 320, height: 568 }, textScale: 2 },
  { name: "landscape", viewport: { width: 568, height: 320 }, textScale: 1 },
  { name: "landscape at 200% text", viewport: { width: 568, height: 320 }, textScale: 2 },
];

/**
 * "200% text size" as a browser's text size setting sets it: the default font size doubles (16 px to
 * 32 px), and every size given in rem or em with it. Works with or without JavaScript.
 */
async function scaleText(page: Page, scale: number) {
  if (scale === 1) return;
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Page.setFontSizes", { fontSizes: { standard: 16 * scale, fixed: 13 * scale } });
}

/** Every control a finger can use on the page now: what is too small or sticks out, and whether it scrolls sideways. */
async function layoutProblems(page: Page) {
  return page.evaluate((minimum) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(
        `scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`,
        ...[...document.querySelectorAll<HTMLElement>("body *")]
          .filter((element) => element.getBoundingClientRect().right > width)
          .map((element) => `${element.tagName.toLowerCase()}.${element.className} is too wide`),
        ...[...document.querySelectorAll<HTMLElement>("body *")]
          .filter((element) => element.scrollWidth > element.clientWidth && element.clientWidth > 0)
          .map(
            (element) =>
              `${element.tagName.toLowerCase()}.${element.className} overflows ${element.scrollWidth} > ${element.clientWidth}: ${element.textContent?.slice(0, 40)}`,
          ),
      );
    const controls = document.querySelectorAll<HTMLElement>(
      "main a[href], main button, main input, main select, main textarea, main summary, main audio[controls]",
    );
    for (const control of controls) {
      // A control counts only when shown; an input in a label is tapped through its label.
      if (!control.getClientRects().length || getComputedStyle(control).visibility === "hidden") continue;
      if (control instanceof HTMLInputElement && control.type === "hidden") continue;
      const target =
        control instanceof HTMLInputElement && ["checkbox", "radio"].includes(control.type)
          ? (control.closest("label") ?? control)
          : control;
      const box = target.getBoundingClientRect();
      const name = `${control.tagName.toLowerCase()} "${(control.textContent || control.getAttribute("aria-label") || control.getAttribute("name") || "").trim().slice(0, 40)}"`;
      if (box.width < minimum || box.height < minimum)
        problems.push(`${name} is ${Math.round(box.width)} × ${Math.round(box.height)}`);
      if (box.left < 0 || box.right > width)
        problems.push(`${name} sticks out: ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
    return problems;
  }, MIN_TARGET);
}

for (const screen of screens) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport });

    test("a new question: every state's controls are big enough and fit", async ({ page, db, javaScriptEnabled }) => {
      await scaleText(page, screen.textScale);
      const owner = await newOwner(db);
      const question = await sentQuestion(db, owner.id);
      await page.goto(question.url);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(question.text);
      await page.getByText("Skip this question", { exact: true }).click();
      await expect(page.getByRole("button", { name: "Skip", exact: true })).toBeVisible();
      expect(await layoutProblems(page)).toEqual([]);

      if (javaScriptEnabled !== false) {
        // The recorder: recording, then listening back; and the folded file form.
        const recorder = page.locator("#recorder");
        await recorder.getByRole("button", { name: "Record", exact: true }).click();
        await expect(recorder.getByRole("status")).toHaveText("Recording. Press Stop when you have finished.");
        expect(await layoutProblems(page)).toEqual([]);
        await page.waitForTimeout(1200);
        await recorder.getByRole("button", { name: "Stop", exact: true }).click();
        await expect(recorder.getByRole("button", { name: "Send this answer", exact: true })).toBeVisible();
        expect(await layoutProblems(page)).toEqual([]);
        // The fold is offered before recording only; ?upload=1 opens it (the link's target without the script).
        await page.goto(`${question.url}&upload=1`);
        await page.getByLabel("Choose a recording, or record one with your phone").setInputFiles(fixtureWebm);
        expect(await layoutProblems(page)).toEqual([]);
      }
    });

    test("an answered question: the player and Send to someone fit", async ({ page, db }) => {
      await scaleText(page, screen.textScale);
      const owner = await newOwner(db);
      const question = await sentQuestion(db, owner.id);
      await createAnswer(db, { storytellerId: question.storytellerId, promptId: question.promptId });
      await page.goto(question.url);
      await expect(page.getByRole("heading", { name: "Send to someone" })).toBeVisible();
      expect(await layoutProblems(page)).toEqual([]);
    });
  });
}

test("the countdown and the recorder's status are announced to screen readers", async ({
  page,
  db,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled === false, "the recorder is the page's script");
  const owner = await newOwner(db);
  const question = await sentQuestion(db, owner.id);
  await page.clock.install();
  await page.goto(question.url);
  const recorder = page.locator("#recorder");
  // The countdown is a timer (not read out four times a second); a polite live region says the time left now and then.
  const timer = recorder.getByRole("timer");
  const announcer = recorder.locator("[aria-live=polite]");
  const status = recorder.getByRole("status");
  await expect(timer).toHaveText("5:00 left");
  await recorder.getByRole("button", { name: "Record", exact: true }).click();
  await expect(status).toHaveText("Recording. Press Stop when you have finished.");
  await expect(announcer).toHaveText("");
  await page.clock.fastForward("01:00");
  await expect(announcer).toHaveText("4 minutes left");
  await page.clock.fastForward("03:00");
  await expect(announcer).toHaveText("1 minute left");
  await page.clock.fastForward("00:30");
  await expect(announcer).toHaveText("30 seconds left");
  await page.clock.fastForward("00:20");
  await expect(announcer).toHaveText("10 seconds left");
  await expect(timer).toHaveText(/^0:(10|09) left$/);
  await page.clock.fastForward("00:10");
  await expect(status).toHaveText(/^5 minutes reached, so recording stopped\. Recorded, not sent yet\./);
});
