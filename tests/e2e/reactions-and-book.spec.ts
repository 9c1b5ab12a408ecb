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

test("make the book's print-ready files and download them", async ({ page, context, db, baseURL }) => {
  test.setTimeout(240_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Priya");
  const nani = await grandmaRose(db, user.id, "Nani");
  await page.goto(`/dashboard/recipient/${nani.id}/keep`);
  // The screens show the files in both languages; otherwise English is enough.
  const languages = screensDir() ? (["en", "hi"] as const) : (["en"] as const);
  for (const language of languages) {
    await page.getByLabel("Title").fill(language === "hi" ? "नानी की कहानियाँ" : "Nani's stories");
    if (language === "hi") await page.getByRole("radio", { name: "हिन्दी (Hindi)" }).check();
    await page.getByRole("radio", { name: "6 × 9 in" }).check();
    await page.getByRole("radio", { name: "Hardcover" }).check();
    await page.getByRole("button", { name: "Make print-ready files" }).click();
    await expect(page.getByText("The print-ready files are being made.")).toBeVisible();
    const newest = page.locator("[data-keepsake]").first();
    await expect(newest).toContainText("Print-ready files");
    await expect(async () => {
      await page.reload();
      expect(await newest.getAttribute("data-keepsake")).toBe("ready");
    }).toPass({ timeout: 150_000 });
    if (language === "en") await expectNoAxeViolations(page);
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      newest.getByRole("link", { name: "Download print-ready files" }).click(),
    ]);
    const unzipped = path.join(test.info().outputDir, `print-${language}`);
    const zip = `${unzipped}.zip`;
    await file.saveAs(zip);
    await run("unzip", ["-q", "-o", zip, "-d", unzipped]);
    const interior = path.join(unzipped, "interior.pdf");
    const cover = path.join(unzipped, "cover.pdf");
    const { stdout: info } = await run("pdfinfo", [interior]);
    expect(info).toMatch(/Page size:\s+450 x 666 pts/);
    expect(info).toMatch(/Pages:\s+24\n/);
    expect((await run("pdfinfo", [cover])).stdout).toMatch(/Page size:\s+1008 x 774 pts/);
    if (!screensDir()) continue;
    // The cover spread and two inside pages (the title page, the first answers) as pictures.
    const dir = path.join(screensDir()!, "book");
    await mkdir(dir, { recursive: true });
    await run("pdftoppm", ["-r", "40", "-png", "-singlefile", cover, path.join(dir, `print-cover-${language}`)]);
    for (const number of [1, 3])
      await run("pdftoppm", [
        "-r",
        "60",
        "-png",
        "-singlefile",
        "-f",
        String(number),
        "-l",
        String(number),
        interior,
        path.join(dir, `print-${language}-${number}`),
      ]);
  }
});
