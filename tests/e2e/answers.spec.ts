import { randomUUID } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { createLocalStorage } from "../../app/services/storage.server";
import type { Db } from "../../db/client";
import { createAnswer, createStoryteller } from "../factories";
import { E2E_DATA_DIR } from "./environment";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// A revoked share link is a 404 by design; the browser logs it.
test.use({ allowedConsoleErrors: [/status of 404/] });

/** The e2e server keeps files under DATA_DIR/files (local storage: no S3_BUCKET in playwright.config.ts). */
const filesRoot = path.resolve(E2E_DATA_DIR, "files");
const QUESTION = "What was your first home like?";
const TRANSCRIPT = "We lived in a small house by the river, with a mango tree by the door.";

/**
 * A Storyteller with one sent question and its answer (the fixture recording, stored where the
 * server reads it), arranged directly: recording itself is the record page's journey.
 */
async function storytellerWithAnswer(db: Db, ownerId: string) {
  // Far ahead, so the scheduler never sends anything during the test.
  const storyteller = await createStoryteller(db, {
    ownerId,
    nickname: "Nani",
    firstName: "Kamla",
    timeZone: "Asia/Kolkata",
    firstPromptDate: "2031-01-01",
    frequency: "weekly",
    prompts: [{ text: QUESTION, sentAt: new Date() }],
  });
  const [prompt] = storyteller.prompts;
  const recording = await readFile("tests/fixtures/recording-3s.webm");
  const key = `answers/${prompt.id}/${randomUUID()}.webm`;
  await createLocalStorage(filesRoot).put(key, recording, "audio/webm");
  const answer = await createAnswer(db, {
    storytellerId: storyteller.id,
    promptId: prompt.id,
    storageKey: key,
    contentType: "audio/webm",
    byteSize: recording.byteLength,
    durationMs: 3000,
    transcript: TRANSCRIPT,
    transcriptStatus: "done",
  });
  return { storytellerId: storyteller.id, promptId: prompt.id, answerId: answer.id, key, size: recording.byteLength };
}

const javaScriptOn = () => test.info().project.use.javaScriptEnabled !== false;

/** In a page with JavaScript: the audio element really plays (muted, so no gesture is needed). */
async function expectAudioPlays(page: Page) {
  const played = await page.locator("audio").evaluate(async (audio: HTMLAudioElement) => {
    audio.muted = true;
    await audio.play();
    await new Promise<void>((resolve) => {
      const check = () => (audio.currentTime > 0.2 ? resolve() : setTimeout(check, 50));
      check();
    });
    audio.pause();
    return audio.currentTime;
  });
  expect(played).toBeGreaterThan(0.2);
}

/** A visitor who has never signed in: a fresh context, no cookies. */
async function stranger(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: javaScriptOn() });
  expect(await context.cookies()).toEqual([]);
  return context;
}

test("an answer on the Sent tab: listen (seeking), transcript, download, share, stop sharing, delete", async ({
  page,
  context,
  db,
  baseURL,
  browser,
}) => {
  test.setTimeout(60_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Asha");
  const seeded = await storytellerWithAnswer(db, user.id);
  await page.goto(`/dashboard/recipient/${seeded.storytellerId}?sent=true`);
  const item = page.getByTestId("sent-prompt").filter({ hasText: QUESTION });
  await expect(item).toContainText("Answered");
  await expect(item.getByTestId("transcript")).toContainText(TRANSCRIPT);
  await expectNoAxeViolations(page);

  // Listen: the player's source streams with ranges (what seeking asks for).
  const audio = item.locator("audio");
  await expect(audio).toHaveAttribute("preload", "none");
  const src = await audio.getAttribute("src");
  expect(src).toBe(`/media/answer/${seeded.answerId}`);
  const ranged = await page.request.get(src!, { headers: { Range: "bytes=1000-1999" } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()["content-range"]).toBe(`bytes 1000-1999/${seeded.size}`);
  expect(ranged.headers()["content-type"]).toBe("audio/webm");
  expect((await ranged.body()).byteLength).toBe(1000);
  if (javaScriptOn()) await expectAudioPlays(page);
  // Not for anyone else.
  const outsider = await stranger(browser, baseURL!);
  expect((await outsider.request.get(src!)).status()).toBe(404);

  // Download: a file named after the Storyteller and the question.
  const downloadLink = item.getByRole("link", { name: "Download" });
  const response = await page.request.get((await downloadLink.getAttribute("href"))!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-disposition"]).toContain("attachment;");
  // helmet sets it for every response and serve-file once more: browsers read the first value.
  expect(response.headers()["x-content-type-options"]).toMatch(/^nosniff\b/);
  const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
  expect(download.suggestedFilename()).toBe(`Kamla – ${QUESTION.replace("?", "")}.webm`);

  // Share: with JavaScript the share sheet gets the link (a stub here), or it is copied; without, the page shows it.
  if (javaScriptOn()) {
    await page.evaluate(() => {
      Object.defineProperty(navigator, "share", {
        configurable: true,
        value: async (data: ShareData) => {
          (window as unknown as { shared: ShareData[] }).shared = [
            ...((window as unknown as { shared?: ShareData[] }).shared ?? []),
            data,
          ];
        },
      });
    });
  }
  await item.getByRole("button", { name: "Share" }).click();
  const linkField = item.getByLabel("Share link (anyone with it can listen)");
  await expect(linkField).toHaveValue(new RegExp(`^${baseURL}/s/[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
  const shareUrl = await linkField.inputValue();
  if (javaScriptOn()) {
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData[] }).shared?.map((d) => d.url)))
      .toEqual([shareUrl]);
    // Where there is no share sheet, the link is copied.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await page.evaluate(() => delete (navigator as { share?: unknown }).share);
    await item.getByRole("button", { name: "Share" }).click();
    await expect(item.getByRole("status")).toHaveText("Link copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
  } else {
    await expect(page.getByRole("status").filter({ hasText: "Share link ready: copy it below" })).toBeVisible();
  }
  expect(
    await db.selectFrom("share_links").select("id").where("answer_id", "=", seeded.answerId).execute(),
  ).toHaveLength(1);

  // The link, opened by someone who never signed in: the question, the first name, the words, a player.
  const visitor = await outsider.newPage();
  const shared = await visitor.goto(shareUrl);
  expect(shared?.status()).toBe(200);
  expect(shared?.headers()["referrer-policy"]).toBe("no-referrer, strict-origin");
  expect(shared?.headers()["cache-control"]).toBe("no-store");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(QUESTION);
  await expect(visitor.getByText("A story from Kamla, shared with you")).toBeVisible();
  await expect(visitor.locator("body")).not.toContainText("Nani");
  // The words follow the voice on a shared link too; its only script is our own island.
  await expect(visitor.getByTestId("transcript")).toContainText(TRANSCRIPT);
  // Its only script file is the words island, kept in a template until the first paint (decision 055).
  const sources = await visitor.evaluate(() =>
    [
      ...document.querySelectorAll("script[src]"),
      ...(document
        .querySelector<HTMLTemplateElement>("template#after-paint")
        ?.content.querySelectorAll("script[src]") ?? []),
    ].map((script) => script.getAttribute("src")),
  );
  expect(sources.length).toBeGreaterThan(0);
  for (const src of sources) expect(src).toMatch(/^\/assets\/follow-words-[\w-]+\.js$/);
  const sharedSrc = await visitor.locator("audio").getAttribute("src");
  const sharedRange = await outsider.request.get(new URL(sharedSrc!, baseURL).href, {
    headers: { Range: "bytes=0-99" },
  });
  expect(sharedRange.status()).toBe(206);
  expect(sharedRange.headers()["referrer-policy"]).toBe("no-referrer, strict-origin");
  if (javaScriptOn()) await expectAudioPlays(visitor);
  await expectNoAxeViolations(visitor);

  // Stop sharing: the link is a 404 with a clear page.
  await item.getByRole("button", { name: "Stop sharing" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sharing stopped: the link no longer works" })).toBeVisible();
  await expect(item.getByLabel("Share link (anyone with it can listen)")).toHaveCount(0);
  const revoked = await visitor.goto(shareUrl);
  expect(revoked?.status()).toBe(404);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Recording not found");
  await expect(visitor.locator("body")).not.toContainText(QUESTION);
  await expectNoAxeViolations(visitor);
  expect((await outsider.request.get(new URL(sharedSrc!, baseURL).href)).status()).toBe(404);
  await outsider.close();

  // Delete: nothing happens until the box is ticked.
  await item.getByRole("link", { name: "Delete", exact: true }).click();
  await expect(item.getByText("Delete this answer?")).toBeVisible();
  await item.getByRole("button", { name: "Delete answer" }).click();
  await expect(item.locator("audio")).toHaveCount(1);
  await item.getByLabel("Yes, delete this answer").check();
  await item.getByRole("button", { name: "Delete answer" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Answer deleted" })).toBeVisible();
  await expect(item.locator("audio")).toHaveCount(0);
  await expect(item).toContainText("Not answered yet");
  expect(
    await db.selectFrom("answers").select("id").where("id", "=", seeded.answerId).executeTakeFirst(),
  ).toBeUndefined();
  await expect(stat(path.join(filesRoot, seeded.key))).rejects.toMatchObject({ code: "ENOENT" });
  expect((await page.request.get(src!)).status()).toBe(404);
  await expectNoAxeViolations(page);
});

test("Re-record asks for confirmation, then reopens the question and queues its link again", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Asha");
  const seeded = await storytellerWithAnswer(db, user.id);
  await page.goto(`/dashboard/recipient/${seeded.storytellerId}?sent=true`);
  const item = page.getByTestId("sent-prompt").filter({ hasText: QUESTION });
  await item.getByRole("link", { name: "Re-record", exact: true }).click();
  await item.getByLabel("Yes, ask for a new recording").check();
  await item.getByRole("button", { name: "Send the link again" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "The question's link will be sent again shortly" }),
  ).toBeVisible();
  await expect(item).toContainText("Waiting for a new recording");
  // The answer stays until the new one is in.
  await expect(item.locator("audio")).toHaveCount(1);
  const prompt = await db
    .selectFrom("prompts")
    .select("rerecord_requested_at")
    .where("id", "=", seeded.promptId)
    .executeTakeFirstOrThrow();
  expect(prompt.rerecord_requested_at).not.toBeNull();
  const deliveries = await db
    .selectFrom("deliveries")
    .select(["purpose", "channel"])
    .where("prompt_id", "=", seeded.promptId)
    .execute();
  expect(deliveries).toEqual([{ purpose: "resend", channel: "email" }]);
  await expectNoAxeViolations(page);
});
