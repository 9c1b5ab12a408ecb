import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { type AudioFixture, makeAudioFixtures } from "../audio-fixtures";
import { expect, test } from "./fixtures";
import { answersFor, newOwner, sentQuestion } from "./recording-helpers";

// A phone's own recording, chosen in the record page's file form (with and without JavaScript), is
// taken, and plays in the browser once the server has made its AAC copy: Chromium plays neither AMR
// in 3GP (Android's recorder) nor CAF (iPhone apps) as they are.

const labels = ["3GP with AMR-NB", "CAF with AAC (iOS)", "raw AMR-WB"];
let folder = "";
let fixtures: AudioFixture[] = [];
// Only this file's formats: each worker (and, tests being fully parallel, each test) makes them.
test.beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "heirloom-e2e-formats-"));
  fixtures = await makeAudioFixtures(folder, 2, labels);
});
test.afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/**
 * Has the page's answer player load the recording, and waits for its duration in seconds (or says
 * the media error). Polled rather than awaited as an event: without JavaScript the page gets none.
 */
async function playerDuration(page: Page) {
  const player = page.locator("main > section audio");
  await player.evaluate((audio: HTMLAudioElement) => {
    audio.preload = "metadata";
    audio.load();
  });
  let duration: number | string = Number.NaN;
  await expect
    .poll(async () => {
      duration = await player.evaluate((audio: HTMLAudioElement) =>
        audio.error ? `media error ${audio.error.code}` : audio.duration,
      );
      return typeof duration === "string" || Number.isFinite(duration);
    })
    .toBe(true);
  return duration;
}

for (const label of labels)
  test(`${label}: taken by the file form, then plays in the browser`, async ({ page, db, javaScriptEnabled }) => {
    const fixture = fixtures.find((candidate) => candidate.label === label)!;
    const owner = await newOwner(db);
    const question = await sentQuestion(db, owner.id);
    await page.goto(question.url);
    if (javaScriptEnabled !== false) await page.getByRole("button", { name: "Or upload a recording" }).click();
    await page.getByLabel("Choose a recording, or record one with your phone").setInputFiles(fixture.file);
    await page.getByRole("button", { name: "Send this recording" }).click();
    await expect(page.getByRole("main").getByRole("status").getByRole("heading", { level: 2 })).toHaveText(
      "Sent. Thank you.",
    );
    const [answer] = await answersFor(db, question.promptId);
    expect(answer).toMatchObject({ content_type: fixture.contentType });
    expect(Math.abs(answer.duration_ms! - 2000)).toBeLessThan(150);

    // The background job makes the copy every browser plays; then the player has it.
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom("answers")
              .select("playable_storage_key")
              .where("id", "=", answer.id)
              .executeTakeFirstOrThrow()
          ).playable_storage_key,
        { timeout: 30_000 },
      )
      .toBe(`answers/${answer.id}/playable.m4a`);
    await page.goto(question.url);
    const duration = await playerDuration(page);
    expect(typeof duration === "number" ? Math.abs(duration - 2) : duration).toBeLessThan(0.15);
  });
