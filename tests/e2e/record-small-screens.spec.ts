import path from "node:path";
import { createAnswer } from "../factories";
import { expect, test } from "./fixtures";
import { layoutProblems, scaleText } from "./layout-checks";
import { newOwner, sentQuestion } from "./recording-helpers";

// The record page on a small, old phone. At 320 px wide, at 200% text size and in
// landscape: nothing scrolls sideways, every control is at least 44 × 44 px (for a checkbox, its
// label: the whole label is what a finger taps), and all of them fit the screen.

const fixtureWebm = path.resolve("tests/fixtures/recording-3s.webm");
const screens = [
  { name: "320 px portrait", viewport: { width: 320, height: 568 }, textScale: 1 },
  { name: "320 px portrait at 200% text", viewport: { width: 320, height: 568 }, textScale: 2 },
  { name: "landscape", viewport: { width: 568, height: 320 }, textScale: 1 },
  { name: "landscape at 200% text", viewport: { width: 568, height: 320 }, textScale: 2 },
];

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
