import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createNotifications, createStoryteller } from "../factories";
import { expect, signInAsNewUser, test } from "./fixtures";

// Screenshots of the grandson's first evening, at 360 and 1280 px, English and Hindi, into
// docs/screens/first-evening/: Add a Storyteller's time zone found by typing "India" (Kolkata
// chosen), the question picker with two questions ticked ("2 selected"), and the bell opened.
// Made by `npm run screens` (SCREENS=1); skipped in the ordinary suite.

const OUT = path.resolve("docs/screens/first-evening");
const widths = [
  { name: "360", viewport: { width: 360, height: 800 } },
  { name: "1280", viewport: { width: 1280, height: 900 } },
];

test.skip(!process.env.SCREENS, "made with SCREENS=1");
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "screenshots with JavaScript");

type Words = Record<string, unknown>;
/** A key of `namespace` in `language`, with its {{values}} filled in. */
function say(language: string, namespace: string, key: string, values: Record<string, string> = {}) {
  const words = JSON.parse(
    readFileSync(new URL(`../../locales/${language}/${namespace}.json`, import.meta.url), "utf8"),
  ) as Words;
  const text = key.split(".").reduce<unknown>((node, part) => (node as Words)[part], words);
  return String(text).replace(/{{(\w+)}}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}

async function shot(page: Page, name: string, fullPage = true) {
  const png = await page.screenshot({ fullPage, animations: "disabled", caret: "hide" });
  await sharp(png)
    .png({ palette: true, quality: 80, compressionLevel: 9 })
    .toFile(path.join(OUT, `${name}.png`));
}

for (const language of ["en", "hi"] as const) {
  for (const width of widths) {
    test(`first-evening screens, ${language}, ${width.name} px`, async ({ browser, db, baseURL }) => {
      mkdirSync(OUT, { recursive: true });
      const context = await browser.newContext({
        viewport: width.viewport,
        locale: language === "hi" ? "hi-IN" : "en-US",
        timezoneId: "America/New_York",
        reducedMotion: "reduce",
      });
      const page = await context.newPage();
      const user = await signInAsNewUser(db, context, baseURL!, "Aman");
      await db.updateTable("users").set({ language }).where("id", "=", user.id).execute();
      const name = (screen: string) => `${screen}-${language}-${width.name}`;

      // Add a Storyteller: her number, then "India" typed in the search, Kolkata chosen.
      await page.goto("/dashboard/onboarding");
      await page.getByLabel(say(language, "storytellers", "fields.nickname")).fill("Dadi");
      await page.getByLabel(say(language, "storytellers", "fields.firstName")).fill("Kamla");
      const search = page.getByLabel(say(language, "storytellers", "fields.zoneSearch"));
      await search.fill(language === "hi" ? "भारत" : "India");
      await search.press("Enter");
      const zone = page.getByRole("combobox", { name: say(language, "storytellers", "fields.timeZone") });
      await expect(zone).toHaveValue("Asia/Kolkata");
      // The whole step: the search, her zone chosen under it, and its time in words.
      await shot(page, name("time-zone"));

      // The picker with two questions ticked, listed as "2 selected" before they are added.
      const dadi = await createStoryteller(db, {
        ownerId: user.id,
        nickname: language === "hi" ? "दादी" : "Dadi",
        language: "hi",
        timeZone: "Asia/Kolkata",
        prompts: [{ text: "आप बचपन में क्या खेलती थीं?", sentAt: new Date() }],
      });
      await page.goto(`/dashboard/recipient/${dadi.id}/prompts/new?q=${language === "hi" ? "गीत" : "song"}`);
      const boxes = page.locator('input[name="libraryPromptIds"]:not([disabled])');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      const picked = page.getByTestId("picked");
      await expect(picked.getByRole("heading")).toHaveText(
        say(language, "storytellers", "add.selected_other", { count: "2" }),
      );
      await picked.scrollIntoViewIfNeeded();
      await shot(page, name("picker-selected"), false);

      // The bell, opened: what Dadi did, newest first.
      for (const [i, type] of ["uploaded", "skipped", "uploaded"].entries())
        await createNotifications(db, {
          userId: user.id,
          type,
          storytellerId: dadi.id,
          promptId: dadi.prompts[0].id,
          createdAt: [new Date(Date.now() - (i + 1) * 3_600_000)],
        });
      await page.goto("/dashboard");
      await page
        .getByRole("button", { name: say(language, "common", "notifications.bellLabel_other", { count: "3" }) })
        .click();
      // Its items loaded.
      await expect(page.locator('[data-testid^="notifications-"]').first()).toBeVisible();
      await shot(page, name("bell"), false);
      await context.close();
    });
  }
}
