import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { createLocalStorage } from "../../app/services/storage.server";
import type { Db } from "../../db/client";
import { createAnswer, createStoryteller } from "../factories";
import { E2E_DATA_DIR } from "./environment";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// Keeping it forever (decision 023), as a family does it, with and without JavaScript: see what an
// export holds, download it, make a book, watch it being made (reloading), download it, stop a
// listen link; then export everything from the account page, which the e2e server (1 MB limit,
// playwright.config.ts) builds in the background.

const run = promisify(execFile);
const filesRoot = path.resolve(E2E_DATA_DIR, "files");
const QUESTION = "What was your first home like?";
const TRANSCRIPT = "We lived in a small house by the river, with a mango tree by the door.";

async function storytellerWithAnswer(db: Db, ownerId: string, recording: Uint8Array, firstName = "Kamla") {
  const storyteller = await createStoryteller(db, {
    ownerId,
    nickname: firstName === "Kamla" ? "Nani" : "Dada",
    firstName,
    timeZone: "Asia/Kolkata",
    firstPromptDate: "2031-01-01",
    frequency: "weekly",
    prompts: [{ text: QUESTION, sentAt: new Date() }],
  });
  const [prompt] = storyteller.prompts;
  const key = `answers/${prompt.id}/${randomUUID()}.webm`;
  await createLocalStorage(filesRoot).put(key, recording, "audio/webm");
  await createAnswer(db, {
    storytellerId: storyteller.id,
    promptId: prompt.id,
    storageKey: key,
    contentType: "audio/webm",
    byteSize: recording.byteLength,
    durationMs: 3000,
    transcript: TRANSCRIPT,
    transcriptStatus: "done",
  });
  return storyteller.id;
}

/** Reloads (what a no-JavaScript family does) until the newest keepsake is ready; returns the states seen. */
async function reloadUntilReady(page: Page) {
  const seen: string[] = [];
  const newest = page.locator("[data-keepsake]").first();
  for (let i = 0; i < 60; i++) {
    const state = await newest.getAttribute("data-keepsake");
    seen.push(state ?? "");
    if (state === "ready") return seen;
    expect(state).not.toBe("failed");
    await page.waitForTimeout(500);
    await page.reload();
  }
  throw new Error(`never ready: ${seen.join(", ")}`);
}

async function download(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  const target = path.join(test.info().outputDir, file.suggestedFilename());
  await file.saveAs(target);
  return { name: file.suggestedFilename(), target };
}

test("export a Storyteller, make and download a book, stop a listen link, export everything", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const user = await signInAsNewUser(db, context, baseURL!);
  const recording = new Uint8Array(await readFile("tests/fixtures/recording-3s.webm"));
  const storytellerId = await storytellerWithAnswer(db, user.id, recording);

  // From the Storyteller page to the keep page, which says what the export holds before anything downloads.
  await page.goto(`/dashboard/recipient/${storytellerId}`);
  await page.getByRole("link", { name: "Export or make a book" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Keep Kamla's stories forever");
  const exportCard = page.getByRole("region", { name: "Export", exact: true });
  await expect(exportCard).toContainText("1 answer: the original recording and a copy that plays everywhere");
  await expect(exportCard).toContainText("The words of 1 answer, as a text file");
  await expect(exportCard).toContainText("index.html: a page that plays every answer from the folder");
  await expect(exportCard).toContainText("Private answers are not in this export");
  await expectNoAxeViolations(page);

  // Small: the zip comes straight back from the form post.
  const zip = await download(page, () => page.getByRole("button", { name: "Download the export" }).click());
  // Named as the family calls her, as the book's default title is.
  expect(zip.name).toMatch(/^The-stories-of-Nani-\d{4}-\d{2}-\d{2}\.zip$/);
  const { stdout: listing } = await run("unzip", ["-Z1", zip.target]);
  expect(listing.split("\n")).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/\/index\.html$/),
      expect.stringMatching(/\/manifest\.json$/),
      expect.stringMatching(/\/answers\/001\/original\.webm$/),
      expect.stringMatching(/\/answers\/001\/transcript\.txt$/),
    ]),
  );

  // A book: a plain form post, then the list shows it being made until it is ready.
  await page.getByLabel("Title").fill("Nani's stories");
  await page.getByRole("radio", { name: "US letter" }).check();
  await page.getByRole("button", { name: "Make the book" }).click();
  await expect(page.getByText("Your book is being made.")).toBeVisible();
  const list = page.getByRole("region", { name: "Your exports and books" });
  await expect(list.locator("[data-keepsake]").first()).toContainText("Book");
  await expect(list.getByRole("status").first()).toHaveText(/Waiting to start…|Being prepared: \d+% done|Ready: .+/);
  await reloadUntilReady(page);
  await expect(list.getByRole("status").first()).toHaveText(/^Ready: .+, until .+$/);
  const book = await download(page, () => list.getByRole("link", { name: "Download" }).first().click());
  expect(book.name).toMatch(/^Nanis-stories-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect((await readFile(book.target)).subarray(0, 5).toString()).toBe("%PDF-");

  // The book made a listen link for the answer; stopping it is one button.
  const links = page.getByRole("region", { name: "Listen links in books" });
  await expect(links.getByRole("listitem")).toContainText(QUESTION);
  await links.getByRole("button", { name: "Stop this link" }).click();
  await expect(page.getByText("The link is stopped.")).toBeVisible();
  await expect(links).toContainText("No book has been made yet");

  // Everything, from the account page: over the server's 1 MB limit, so it is built in the background.
  await storytellerWithAnswer(db, user.id, new Uint8Array(randomBytes(1_500_000)), "Ramesh");
  await page.goto("/dashboard/user/account");
  await page.getByRole("link", { name: "Export everything" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Keep everything");
  await expect(page.getByText("2 answers: each with the original recording")).toBeVisible();
  await page.getByRole("button", { name: "Download the export" }).click();
  await expect(page.getByText("Your export is being prepared.")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/keep$/);
  await reloadUntilReady(page);
  const everything = await download(page, () => page.getByRole("link", { name: "Download" }).first().click());
  const { stdout: all } = await run("unzip", ["-Z1", everything.target]);
  expect(all.split("\n").filter((name) => name.endsWith("original.webm"))).toHaveLength(2);
  // The bell says it is ready too.
  const notes = await db
    .selectFrom("notifications")
    .select("type")
    .where("user_id", "=", user.id)
    .orderBy("created_at")
    .execute();
  expect(notes.map((note) => note.type)).toEqual(["book_ready", "export_ready"]);
});
