import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures";
import { newOwner, sentQuestions } from "./recording-helpers";

// Screenshots of the record page in each state, at 360 and 1280 px, English and Hindi,
// with JavaScript on and off, into docs/screens/record/. Run by `npm run screens`
// (scripts/screens-record.ts), which sets SCREENS=1; skipped in the ordinary suite.

const OUT = path.resolve("docs/screens/record");
const widths = [
  { name: "360", viewport: { width: 360, height: 800 } },
  { name: "1280", viewport: { width: 1280, height: 900 } },
];
const fixtureWebm = path.resolve("tests/fixtures/recording-3s.webm");

test.skip(!process.env.SCREENS, "made by npm run screens");
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "each shot picks JavaScript on or off itself");
test.describe.configure({ mode: "serial" });

/** A palette PNG of the page as it is: small enough to keep in git. */
async function shot(page: Page, name: string) {
  const png = await page.screenshot({ fullPage: true, animations: "disabled", caret: "hide" });
  await sharp(png)
    .png({ palette: true, quality: 80, compressionLevel: 9 })
    .toFile(path.join(OUT, `${name}.png`));
}

async function newPage(browser: Browser, viewport: { width: number; height: number }, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ viewport, javaScriptEnabled, reducedMotion: "reduce" });
  return context.newPage();
}

for (const language of ["en", "hi"] as const) {
  for (const width of widths) {
    test(`record page states, ${language}, ${width.name} px`, async ({ browser, db }) => {
      mkdirSync(OUT, { recursive: true });
      const owner = await newOwner(db);
      const texts =
        language === "hi"
          ? ["आपका पहला घर कैसा था, और वहाँ आपके साथ कौन रहता था?", "आपको खाना बनाना किसने सिखाया?"]
          : ["What was your first home like, and who lived there with you?", "Who taught you to cook?"];
      const [withJs, withoutJs] = [
        await sentQuestions(db, owner.id, texts, language),
        await sentQuestions(db, owner.id, texts, language),
      ];
      const prefix = `${language}-${width.name}`;

      const page = await newPage(browser, width.viewport, true);
      const recorder = page.locator("#recorder");
      await page.goto(withJs[0].url);
      await expect(recorder.locator("[data-recorder-record]")).toBeEnabled();
      await shot(page, `${prefix}-1-ready`);
      await recorder.locator("[data-recorder-record]").click();
      await expect(recorder.locator("[data-recorder-record]")).toHaveAttribute("aria-pressed", "true");
      await page.waitForTimeout(2200); // a little audio, and the time left moving
      await shot(page, `${prefix}-2-recording`);
      await recorder.locator("[data-recorder-record]").click();
      await expect(recorder.locator("audio")).toHaveAttribute("src", /^blob:/);
      await shot(page, `${prefix}-3-recorded`);
      await recorder.locator(".btn-primary:visible").click();
      await expect(page).toHaveURL(/[?&]submitted=1/, { timeout: 30_000 }); // an upload, on a busy machine
      await shot(page, `${prefix}-4-sent`);
      await page.context().close();

      const plain = await newPage(browser, width.viewport, false);
      await plain.goto(withoutJs[0].url);
      await shot(plain, `${prefix}-5-no-js-form`);
      await plain.locator("input[type=file]").setInputFiles(fixtureWebm);
      await plain.locator("[data-file-submit]").click();
      await expect(plain.locator("#answer-heading")).toBeVisible();
      await shot(plain, `${prefix}-6-no-js-sent`);
      await plain.context().close();
    });
  }
}
