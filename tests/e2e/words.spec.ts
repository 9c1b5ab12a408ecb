import { readFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";
import { createLocalStorage } from "../../app/services/storage.server";
import { signCapability } from "../../app/services/tokens.server";
import type { Db } from "../../db/client";
import { createAnswer, createPrompt, createShareLink, createStoryteller } from "../factories";
import { E2E_DATA_DIR, SITE_ADMIN_EMAIL } from "./environment";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import { serverConfig } from "./recording-helpers";

// The family's words (decision 037): read in segments, corrected with a plain form, searched,
// with and without JavaScript; screenshots at 360 px and 1280 px under test-results/ to look at.

const storage = createLocalStorage(path.resolve(E2E_DATA_DIR, "files"));
// The too-long correction is refused with a 400 on purpose.
test.use({ allowedConsoleErrors: [/status of 400/] });

const javaScriptOn = () => test.info().project.use.javaScriptEnabled !== false;
const SEGMENTS = [
  { start: 0, end: 1, text: "I grew up in Lakhnau." },
  { start: 1, end: 2, text: "We walked to the market every Sunday." },
  { start: 2, end: 3, text: "मेरा बचपन लखनऊ में बीता।" },
];

/** Priya, signed in, and Nani's answer to one question, with its words in three segments. */
async function signedInWithAnAnswer(db: Db, context: BrowserContext, baseURL: string) {
  const user = await signInAsNewUser(db, context, baseURL, "Priya");
  const nani = await createStoryteller(db, { ownerId: user.id, nickname: "Nani", firstPromptDate: "2031-01-01" });
  const prompt = await createPrompt(db, {
    storytellerId: nani.id,
    text: "Where did you grow up?",
    createdBy: user.id,
    sentAt: new Date(),
  });
  return createAnswer(db, {
    storytellerId: nani.id,
    promptId: prompt.id,
    storage,
    audio: await readFile("tests/fixtures/recording-3s.webm"),
    durationMs: 3000,
    transcriptSegments: SEGMENTS,
  });
}

test("correct the words, see who did, search them and play from the words found", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const answer = await signedInWithAnAnswer(db, context, baseURL!);
  const shot = (name: string) =>
    page.screenshot({ path: test.info().outputPath(`${name}-${test.info().project.name}.png`), fullPage: true });

  await page.goto("/dashboard/timeline");
  const card = page.getByTestId("timeline-answer");
  const words = card.getByTestId("transcript");
  await expect(words).toContainText("I grew up in Lakhnau. We walked to the market every Sunday.");
  await expect(card.locator("audio track")).toHaveAttribute("src", `/media/answer/${answer.id}/captions.vtt`);
  if (javaScriptOn()) {
    // A tap on a segment plays from there and marks it.
    const second = card.locator("[data-start]").nth(1);
    await expect(second).toHaveAttribute("role", "button");
    await second.click();
    await expect
      .poll(() => card.locator("audio").evaluate((a: HTMLAudioElement) => a.currentTime))
      .toBeGreaterThanOrEqual(1);
    await expect(card.locator('[aria-current="true"]')).toHaveCount(1);
  } else {
    await expect(card.locator("[data-start]").first()).not.toHaveAttribute("role", "button");
  }
  const vtt = await page.request.get(`/media/answer/${answer.id}/captions.vtt`);
  expect(vtt.headers()["content-type"]).toBe("text/vtt; charset=utf-8");
  expect(await vtt.text()).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> 00:00:01\.000\nI grew up in Lakhnau\.\n/);
  await page.setViewportSize({ width: 360, height: 800 });
  await shot("words-timeline-360");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Correct a name, one box per segment.
  await card.getByRole("link", { name: "Correct the words" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Correct the words" })).toBeVisible();
  await expect(page.getByRole("textbox")).toHaveCount(3);
  await page.getByLabel("Words from 0:00 to 0:01").fill("I grew up in Lucknow.");
  await shot("words-correct-1280");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Save the words" }).click();
  // By its path: the form's own URL ends in ?from=/dashboard/timeline.
  await expect(page).toHaveURL((url) => url.pathname === "/dashboard/timeline");
  await expect(words).toContainText("I grew up in Lucknow. We walked");
  await expect(card.getByTestId("words-corrected")).toHaveText(/^Corrected by Priya, [A-Z][a-z]+ \d{1,2}$/);

  // Too long: told in words, what was typed kept.
  await card.getByRole("link", { name: "Correct the words" }).click();
  await page
    .getByLabel("Words from 0:01 to 0:02")
    .evaluate((box: HTMLTextAreaElement) => box.removeAttribute("maxlength"));
  await page.getByLabel("Words from 0:01 to 0:02").fill("x".repeat(2100));
  await page.getByRole("button", { name: "Save the words" }).click();
  await expect(page.getByRole("alert")).toHaveText("One part is too long. Please shorten it.");
  await expect(page.getByLabel("Words from 0:01 to 0:02")).toHaveValue("x".repeat(2100));

  // Search from the Timeline's box: English by stem, Hindi in Devanagari; play starts at the segment.
  await page.goto("/dashboard/timeline");
  await page.getByLabel("Find what was said").fill("walking");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/dashboard\/search\?q=walking$/);
  const hit = page.getByTestId("search-hit");
  await expect(hit).toHaveCount(1);
  await expect(hit.locator("mark")).toHaveText(["walked"]);
  await expect(hit.locator("audio")).toHaveAttribute("src", `/media/answer/${answer.id}#t=1`);
  await expectNoAxeViolations(page);
  await page.getByLabel("Find what was said").fill("लखनऊ");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(hit.locator("mark")).toHaveText(["लखनऊ"]);
  await expect(hit.locator("audio")).toHaveAttribute("src", `/media/answer/${answer.id}#t=2`);
  await page.setViewportSize({ width: 360, height: 800 });
  await shot("words-search-360");
});

test("words typed while the page's scripts still load are kept, and saved", async ({ page, context, db, baseURL }) => {
  test.skip(!javaScriptOn(), "nothing hydrates without JavaScript: the plain form posts what was typed (above)");
  const answer = await signedInWithAnAnswer(db, context, baseURL!);
  // A slow phone: the page's scripts arrive only after she has typed.
  let release = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  // Not waiting for "load" or DOMContentLoaded: both wait for the module scripts.
  await page.goto(`/dashboard/answers/${answer.id}/words?from=/dashboard/timeline`, { waitUntil: "commit" });
  const first = page.getByLabel("Words from 0:00 to 0:01");
  await first.fill("I grew up in Lucknow.");
  release();
  // Hydrated: a segment of the words becomes a button that plays from there.
  await expect(page.locator("[data-start]").first()).toHaveAttribute("role", "button");
  await expect(first).toHaveValue("I grew up in Lucknow.");
  await page.getByRole("button", { name: "Save the words" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/dashboard/timeline");
  await expect(page.getByTestId("timeline-answer").getByTestId("transcript")).toContainText(
    "I grew up in Lucknow. We walked",
  );
});

test("words that wait for the speech model: the family may write them, only the site's runner sees setup, a listener nothing @same-without-js", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Priya");
  const nani = await createStoryteller(db, { ownerId: user.id, nickname: "Nani", firstPromptDate: "2031-01-01" });
  const prompt = await createPrompt(db, { storytellerId: nani.id, text: "Where did you grow up?", sentAt: new Date() });
  const answer = await createAnswer(db, {
    storytellerId: nani.id,
    promptId: prompt.id,
    storage,
    audio: await readFile("tests/fixtures/recording-3s.webm"),
    durationMs: 3000,
    transcriptStatus: "waiting",
  });

  await page.goto("/dashboard/timeline");
  const words = page.getByTestId("timeline-answer").getByTestId("transcript");
  await expect(words).toContainText("Words will appear here.");
  await expect(words).not.toContainText(/speech|install|setup/i);
  await expect(words.getByRole("link", { name: "Check your setup" })).toHaveCount(0);
  await words.getByRole("link", { name: "Write the words yourself" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Write the words" })).toBeVisible();
  await expect(page).toHaveTitle(/^Write the words/);
  await page.goto("/dashboard/testpage");
  await expect(page.getByTestId("speech-setup")).toContainText("you can write the words of any answer yourself");
  await expect(page.getByTestId("speech-setup")).not.toContainText("npm run");

  // Someone the answer was shared with: the recording, and no word about the server.
  const share = await createShareLink(db, { answerId: answer.id, createdBy: user.id });
  await page.goto(`/s/${await signCapability(serverConfig(), "share", share.id)}`);
  await expect(page.locator("audio")).toHaveCount(1);
  await expect(page.locator("body")).not.toContainText(/Words will appear|speech|setup/i);

  // Whoever runs the site is told what is missing and how to install it.
  await db.updateTable("users").set({ email: SITE_ADMIN_EMAIL }).where("id", "=", user.id).execute();
  await page.goto("/dashboard/timeline");
  await words.getByRole("link", { name: /Check your setup/ }).click();
  await expect(page.getByTestId("speech-setup")).toContainText("npm run speech:");
  await db
    .updateTable("users")
    .set({ email: `priya.${user.id}@example.com` })
    .where("id", "=", user.id)
    .execute();
});
