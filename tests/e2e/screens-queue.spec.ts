import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createAnswer, createPrompt, createStoryteller } from "../factories";
import { expect, signInAsNewUser, test } from "./fixtures";

// Screenshots of the overview (answers first), the queue (and mid-drag), the picker, the Sent tab and
// the board, at 360 and 1280 px, English and Hindi, into docs/screens/queue/.
// Made by `npm run screens` (SCREENS=1); skipped in the ordinary suite.

const OUT = path.resolve("docs/screens/queue");
const widths = [
  { name: "360", viewport: { width: 360, height: 800 } },
  { name: "1280", viewport: { width: 1280, height: 900 } },
];

test.skip(!process.env.SCREENS, "made with SCREENS=1");
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "screenshots with JavaScript");

/** The whole page, or what is on the screen (a dialog, a drag under way). */
async function shot(page: Page, name: string, fullPage = true) {
  const png = await page.screenshot({ fullPage, animations: "disabled", caret: "hide" });
  await sharp(png)
    .png({ palette: true, quality: 80, compressionLevel: 9 })
    .toFile(path.join(OUT, `${name}.png`));
}

for (const language of ["en", "hi"] as const) {
  for (const width of widths) {
    test(`queue screens, ${language}, ${width.name} px`, async ({ browser, db, baseURL }) => {
      mkdirSync(OUT, { recursive: true });
      const context = await browser.newContext({
        viewport: width.viewport,
        locale: language === "hi" ? "hi-IN" : "en-US",
        reducedMotion: "reduce",
      });
      const page = await context.newPage();
      const user = await signInAsNewUser(db, context, baseURL!, "Neha");
      const texts =
        language === "hi"
          ? ["आपका पहला घर कैसा था?", "आपको खाना बनाना किसने सिखाया?", "आपकी शादी का दिन कैसा था?"]
          : ["What was your first home like?", "Who taught you to cook?", "What was your wedding day like?"];
      const st = await createStoryteller(db, {
        ownerId: user.id,
        nickname: language === "hi" ? "दादी" : "Grandma Rose",
        language,
        firstPromptDate: "2027-01-04",
        frequency: "weekly",
        nextSendAt: new Date("2027-01-04T15:00:00Z"),
        prompts: texts,
      });
      const day = (n: number) => new Date(Date.UTC(2026, 10, n));
      const asked = language === "hi" ? "आप बचपन में क्या खेलती थीं?" : "What did you play as a child?";
      const answered = await createPrompt(db, { storytellerId: st.id, text: asked, sentAt: day(10) });
      await createAnswer(db, { storytellerId: st.id, promptId: answered.id, durationMs: 83_000 });
      await createPrompt(db, {
        storytellerId: st.id,
        text: language === "hi" ? "आपका पहला काम क्या था?" : "What was your first job?",
        sentAt: day(12),
        skippedAt: day(13),
      });
      const name = (screen: string) => `${screen}-${language}-${width.name}`;

      await page.goto("/dashboard");
      await shot(page, name("overview"));
      await page.goto(`/dashboard/recipient/${st.id}`);
      await shot(page, name("queue"));
      await dragMidway(page);
      await shot(page, name("queue-drag"), false);
      await page.mouse.up();
      await pickerOpen(page);
      await shot(page, name("picker"), false);
      await page.goto(`/dashboard/recipient/${st.id}?sent=true`);
      await shot(page, name("sent"));
      await page.goto(`/dashboard/recipient/${st.id}/prompts/new?q=${language === "hi" ? "गीत" : "song"}`);
      await shot(page, name("picker-search"));
      await page.goto(`/dashboard/kanban`);
      await shot(page, name("board"));
      await context.close();
    });
  }
}

/** The first queued question picked up and held over the third, which is marked as where it will land. */
async function dragMidway(page: Page) {
  const rows = page.getByTestId("queued-prompt");
  await expect(rows.first()).toHaveAttribute("draggable", "true"); // hydrated
  await rows.first().evaluate((row) => row.scrollIntoView({ block: "start" }));
  const from = (await rows.nth(0).boundingBox())!;
  const to = (await rows.nth(2).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + 16);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  // One more move over the target: Chromium's first dragover there can come before React listens.
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + 4, { steps: 2 });
  await expect(rows.nth(2)).toHaveAttribute("data-drop-target", "true");
}

/** The picker as the queue page opens it: a dialog over the page, its add button in view. */
async function pickerOpen(page: Page) {
  await page.locator('a[href$="/prompts/new"]').first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.locator("details").first()).toBeVisible();
}
