import { execFile } from "node:child_process";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createLocalStorage } from "../../app/services/storage.server";
import type { Db } from "../../db/client";
import { createAnswer, createPrompt, createStoryteller } from "../factories";
import { E2E_DATA_DIR } from "./environment";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// Decisions 047 and 048, with and without JavaScript: a heart and a note on
// the Timeline; a cover photo uploaded on the keep page and a book made with it. With SCREENS_DIR
// set (JavaScript project), the screens at 360 and 1280 px in English and Hindi and the book's
// pages (pdftoppm) are written there.

// The refused cover photo is a 400 (its message is on the page).
test.use({ allowedConsoleErrors: [/status of 400/] });

const run = promisify(execFile);
const storage = createLocalStorage(path.resolve(E2E_DATA_DIR, "files"));
const QUESTIONS = ["What was the farm like?", "Who was your best friend?"];
const javaScriptOn = () => test.info().project.use.javaScriptEnabled !== false;
const screensDir = () => (javaScriptOn() ? process.env.SCREENS_DIR : undefined);

async function grandmaRose(db: Db, ownerId: string, nickname = "Grandma Rose") {
  const rose = await createStoryteller(db, {
    ownerId,
    nickname,
    firstName: "Rose",
    firstPromptDate: "2031-01-01",
    prompts: [],
  });
  for (const [index, text] of QUESTIONS.entries()) {
    const prompt = await createPrompt(db, { storytellerId: rose.id, text, createdBy: ownerId, sentAt: new Date() });
    await createAnswer(db, {
      storytellerId: rose.id,
      promptId: prompt.id,
      storage,
      audio: await readFile("tests/fixtures/recording-3s.webm"),
      durationMs: 3000,
      transcript: index ? "Margaret, from the next farm." : "We had cows, a well and an orchard of apples.",
      transcriptStatus: "done",
    });
  }
  return rose;
}

async function shoot(page: Page, name: string, locate?: () => ReturnType<Page["locator"]>) {
  const dir = screensDir();
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const target = path.join(dir, `${name}-${width}.png`);
    await (locate ? locate().screenshot({ path: target }) : page.screenshot({ path: target, fullPage: true }));
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a heart and a note on an answer in the Timeline", async ({ page, context, db, baseURL }) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Priya");
  await grandmaRose(db, user.id);
  await page.goto("/dashboard/timeline");
  const farm = page.getByTestId("timeline-answer").filter({ hasText: QUESTIONS[0] });
  const reactions = farm.getByTestId("answer-reactions");
  await expect(reactions.getByTestId("heart-count")).toHaveText("0 hearts");

  await reactions.getByRole("button", { name: "Send a heart" }).click();
  await expect(reactions.getByRole("button", { name: "Heart sent" })).toHaveAttribute("aria-pressed", "true");
  await expect(reactions.getByTestId("heart-count")).toHaveText("1 heart");
  // Without JavaScript the page came back to the answer; with it, it never left.
  if (!javaScriptOn()) await expect(page).toHaveURL(/#answer-/);

  await reactions.getByLabel("A short note for Grandma Rose").fill("We loved hearing about the orchard!");
  await reactions.getByRole("button", { name: "Send the note" }).click();
  await expect(reactions.getByTestId("reaction-note")).toHaveText("You: We loved hearing about the orchard!");
  if (javaScriptOn()) await expect(reactions.getByLabel("A short note for Grandma Rose")).toHaveValue("");
  else await expect(page.getByText("Your note is on its way.")).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "reactions/en", () => farm);

  // Taken back: the heart is gone.
  await reactions.getByRole("button", { name: "Heart sent" }).click();
  await expect(reactions.getByTestId("heart-count")).toHaveText("0 hearts");

  if (screensDir()) {
    await db.updateTable("users").set({ language: "hi" }).where("id", "=", user.id).execute();
    await page.goto("/dashboard/timeline?lng=hi");
    await expect(reactions.getByRole("button", { name: "दिल भेजें" })).toBeVisible();
    await shoot(page, "reactions/hi", () => farm);
  }
});

test("upload a cover photo and make the book with it", async ({ page, context, db, baseURL }) => {
  test.setTimeout(120_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Priya");
  // An emoji in her name, as families write them: the book prints it from the emoji font.
  const rose = await grandmaRose(db, user.id, "Grandma Rose 🌹");
  await page.goto(`/dashboard/recipient/${rose.id}/keep`);
  await expect(page.getByLabel("Title")).toHaveValue("The stories of Grandma Rose 🌹");

  // Not a photo: refused on its field, in words.
  await page.getByLabel("Upload a cover photo").setInputFiles({
    name: "notes.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("not a photo"),
  });
  await page.getByRole("button", { name: "Upload the photo" }).click();
  await expect(page.getByText("That file is not a photo we can read.")).toBeVisible();

  const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#b5835a" } })
    .jpeg()
    .toBuffer();
  await page
    .getByLabel("Upload a cover photo")
    .setInputFiles({ name: "rose.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByRole("button", { name: "Upload the photo" }).click();
  await expect(page.getByText("The cover photo is saved.")).toBeVisible();
  await expect(page.getByRole("radio", { name: "The photo you uploaded" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "English" })).toBeChecked();
  await expectNoAxeViolations(page);
  if (!screensDir()) return;

  // The book, its pages as pictures: English, then the same book in Hindi.
  for (const language of ["en", "hi"] as const) {
    if (language === "hi") await page.getByRole("radio", { name: "हिन्दी (Hindi)" }).check();
    await page.getByRole("button", { name: "Make the book" }).click();
    await expect(page.getByText("Your book is being made.")).toBeVisible();
    const newest = page.locator("[data-keepsake]").first();
    await expect(async () => {
      await page.reload();
      expect(await newest.getAttribute("data-keepsake")).toBe("ready");
    }).toPass({ timeout: 60_000 });
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      newest.getByRole("link", { name: "Download" }).click(),
    ]);
    const pdf = path.join(test.info().outputDir, `book-${language}.pdf`);
    await file.saveAs(pdf);
    const dir = path.join(screensDir()!, "book");
    await mkdir(dir, { recursive: true });
    // Without poppler-utils the book is made and checked, and its pages are not drawn (said in the report).
    await run("pdftoppm", ["-r", "60", "-png", "-l", "3", pdf, path.join(dir, language)]).catch((error) => {
      if (error.code !== "ENOENT") throw error;
      test.info().annotations.push({ type: "skipped", description: "pdftoppm is not installed: no book pages drawn" });
    });
  }
});
