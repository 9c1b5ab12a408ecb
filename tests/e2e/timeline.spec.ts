import { readFile } from "node:fs/promises";
import path from "node:path";
import { createLocalStorage } from "../../app/services/storage.server";
import type { Db } from "../../db/client";
import {
  createAnswer,
  createAnswersInBulk,
  createGroup,
  createPrompt,
  createStoryteller,
  createUser,
} from "../factories";
import { E2E_DATA_DIR } from "./environment";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

/** The e2e server keeps files under DATA_DIR/files (local storage: no S3_BUCKET in playwright.config.ts). */
const storage = createLocalStorage(path.resolve(E2E_DATA_DIR, "files"));
const QUESTION = "What was your first home like?";
const TRANSCRIPT = "We lived in a small house by the river, with a mango tree by the door.";
const DAY = 86_400_000;

const javaScriptOn = () => test.info().project.use.javaScriptEnabled !== false;
const monthOf = (date: Date) =>
  new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(date);

/**
 * Two Storytellers far in the future of their schedules (nothing is sent during the test): Nani
 * with a real recording answered just now, and 25 older answers between the two, two days apart.
 */
async function familyWithAnswers(db: Db, ownerId: string) {
  const nani = await createStoryteller(db, { ownerId, nickname: "Nani", firstPromptDate: "2031-01-01" });
  const dada = await createStoryteller(db, { ownerId, nickname: "Dada", firstPromptDate: "2031-01-01" });
  const older = await createAnswersInBulk(db, {
    storytellerIds: [dada.id, nani.id],
    count: 25,
    newest: new Date(Date.now() - 20 * DAY),
    spacingMs: 2 * DAY,
  });
  const prompt = await createPrompt(db, {
    storytellerId: nani.id,
    text: QUESTION,
    createdBy: ownerId,
    sentAt: new Date(),
  });
  const recorded = await createAnswer(db, {
    storytellerId: nani.id,
    promptId: prompt.id,
    storage,
    audio: await readFile("tests/fixtures/recording-3s.webm"),
    durationMs: 3000,
    transcript: TRANSCRIPT,
    transcriptStatus: "done",
  });
  return { nani, dada, recorded, older };
}

test("the Timeline: answers by month, a player, Older answers, and the filter, with and without JavaScript", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Asha");
  const { dada, recorded, older } = await familyWithAnswers(db, user.id);
  const times = [new Date(), ...older.map((a) => a.created_at)];

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Timeline" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/timeline$/);
  await expect(page.getByRole("heading", { level: 1, name: "Timeline" })).toBeVisible();

  // Newest first, 20 to a page, under a heading per month.
  const answers = page.getByTestId("timeline-answer");
  await expect(answers).toHaveCount(20);
  const expectedMonths = [...new Set(times.slice(0, 20).map(monthOf))];
  await expect(page.getByTestId("timeline-month").getByRole("heading", { level: 2 })).toHaveText(expectedMonths);
  const newest = answers.first();
  await expect(newest.getByRole("heading", { level: 3 })).toHaveText(QUESTION);
  await expect(newest.getByTestId("timeline-storyteller")).toHaveText("Nani");
  await expect(newest).toContainText("Length 0:03");
  await expect(newest.getByTestId("transcript")).toContainText(TRANSCRIPT);
  await expectNoAxeViolations(page);

  // The player streams with seeking, and loads the recording's length when asked.
  const audio = newest.locator("audio");
  await expect(audio).toHaveAttribute("preload", "none");
  await expect(audio).toHaveAttribute("src", `/media/answer/${recorded.id}`);
  const ranged = await page.request.get(`/media/answer/${recorded.id}`, { headers: { Range: "bytes=100-199" } });
  expect(ranged.status()).toBe(206);
  if (javaScriptOn()) {
    const loaded = await audio.evaluate(
      (element: HTMLAudioElement) =>
        new Promise<{ readyState: number; duration: number }>((resolve, reject) => {
          const done = () => resolve({ readyState: element.readyState, duration: element.duration });
          element.addEventListener("loadedmetadata", done, { once: true });
          element.addEventListener("error", () => reject(new Error("the audio did not load")), { once: true });
          element.load();
        }),
    );
    expect(loaded.readyState).toBeGreaterThanOrEqual(1); // HAVE_METADATA
    // MediaRecorder's WebM does not state its length up front: Infinity until read to the end.
    expect(loaded.duration).toBeGreaterThan(0);
  }

  // Older answers: the other six, then back to the newest.
  await page.getByRole("link", { name: "Older answers" }).click();
  await expect(page).toHaveURL(/[?&]before=/);
  await expect(answers).toHaveCount(6);
  await expect(answers.first().getByRole("heading", { level: 3 })).toHaveText(/^Bulk question/);
  await expect(page.getByRole("link", { name: "Older answers" })).toHaveCount(0);
  await page.getByRole("link", { name: "Newest answers" }).click();
  await expect(answers.first().getByRole("heading", { level: 3 })).toHaveText(QUESTION);

  // The filter: a GET form (with JavaScript, choosing is enough; without, Show sends it).
  const choice = page.getByLabel("Storyteller", { exact: true });
  await choice.selectOption({ label: "Dada" });
  if (!javaScriptOn()) await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]storyteller=${dada.id}`));
  await expect(answers).toHaveCount(13);
  await expect(page.getByTestId("timeline-storyteller")).toHaveText(Array(13).fill("Dada"));
  await expect(choice).toHaveValue(dada.id);
  await expectNoAxeViolations(page);

  // In Hindi, the months are named in Hindi.
  await page.goto("/dashboard/timeline?lng=hi");
  const hindiMonth = new Intl.DateTimeFormat("hi-IN", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(),
  );
  await expect(page.getByTestId("timeline-month").first().getByRole("heading", { level: 2 })).toHaveText(hindiMonth);
});

test("a collaborator hears the group's answers on their Timeline, but never a private one", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const collaborator = await signInAsNewUser(db, context, baseURL!, "Ravi");
  const owner = await createUser(db, { first_name: "Asha" });
  const nani = await createStoryteller(db, { ownerId: owner.id, nickname: "Nani", firstPromptDate: "2031-01-01" });
  await createGroup(db, { ownerId: owner.id, storytellerId: nani.id, collaborators: [collaborator.id] });
  const open = await createAnswer(db, {
    storytellerId: nani.id,
    transcript: "Open to the family.",
    transcriptStatus: "done",
  });
  await createAnswer(db, {
    storytellerId: nani.id,
    isPrivate: true,
    transcript: "Only mine.",
    transcriptStatus: "done",
  });

  await page.goto("/dashboard/timeline");
  const answers = page.getByTestId("timeline-answer");
  await expect(answers).toHaveCount(1);
  await expect(answers.locator("audio")).toHaveAttribute("src", `/media/answer/${open.id}`);
  await expect(page.locator("main")).not.toContainText("Only mine.");
  await expectNoAxeViolations(page);
});
