import type { Page } from "@playwright/test";
import type { Db } from "../../db/client";
import { createSentEmail, createStoryteller, createUser } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import {
  answersFor,
  collectScriptRequests,
  notificationTypes,
  savedRecording,
  storedFiles,
  wav,
} from "./recording-helpers";

// My Stories (app/routes/dashboard.mystories/, decision 017): "Record a story" with the record page's
// recorder and Chromium's fake microphone, a question sent to my address answered by uploading a file
// (the form a browser without JavaScript gets), and each story's private flag and Delete.

// Refused files and titles are 4xx answers; the browser logs each.
test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

const javaScriptOn = () => test.info().project.use.javaScriptEnabled !== false;
const TITLE = "The day I met your grandfather";

const promptIdFrom = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;
const promptText = async (db: Db, id: string) =>
  (await db.selectFrom("prompts").select("text").where("id", "=", id).executeTakeFirstOrThrow()).text;

function recorderOf(page: Page) {
  const recorder = page.locator("#recorder");
  return {
    recorder,
    recordButton: recorder.getByRole("button", { name: "Record", exact: true }),
    stopButton: recorder.getByRole("button", { name: "Stop", exact: true }),
    timer: recorder.getByText(/^\d:\d\d left$/),
    status: recorder.getByRole("status"),
    submitButton: recorder.getByRole("button", { name: "Send this answer", exact: true }),
    result: page.locator("[data-recorder-root]").getByRole("status").getByRole("heading", { level: 2 }),
    fileInput: page.getByLabel("Choose a recording, or record one with your phone"),
  };
}

/** Ravi (no session needed) asks a Storyteller whose address is the user's: one question, sent. */
async function questionFor(db: Db, email: string) {
  const ravi = await createUser(db, { first_name: "Ravi" });
  const storyteller = await createStoryteller(db, {
    ownerId: ravi.id,
    nickname: "Asha",
    email,
    firstPromptDate: "2031-01-01",
    prompts: [{ text: `What was your school like? (${Math.random().toString(36).slice(2, 8)})`, sentAt: new Date() }],
  });
  // Hers to answer from My Stories because its link went to her address (the send ledger says so).
  await createSentEmail(db, { promptId: storyteller.prompts[0].id, to: email });
  return { ravi, promptId: storyteller.prompts[0].id, text: storyteller.prompts[0].text };
}

test("record a story of my own with the microphone: stored, listed, made private, deleted", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.skip(!javaScriptOn(), "the recorder is the page's script");
  test.slow(); // a real recording, three pages checked with axe
  const me = await signInAsNewUser(db, context, baseURL!, "Asha");
  await page.goto("/dashboard/mystories");
  await expect(page.getByRole("heading", { level: 1, name: "My stories" })).toBeVisible();
  await expect(page.getByText("No stories yet.")).toBeVisible();
  await expectNoAxeViolations(page);

  // A title too short is refused beside its field.
  await page.getByLabel("Title of your story").fill("Me");
  await page.getByRole("button", { name: "Record my story" }).click();
  await expect(page.getByText("Too short")).toBeVisible();
  await expect(page.getByLabel("Title of your story")).toHaveAttribute("aria-invalid", "true");

  const scripts = collectScriptRequests(page);
  await page.getByLabel("Title of your story").fill(TITLE);
  await page.getByRole("button", { name: "Record my story" }).click();
  await expect(page).toHaveURL(/\/dashboard\/mystories\/record\/[0-9a-f-]{36}$/);
  const promptId = promptIdFrom(page);
  const ui = recorderOf(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(TITLE);
  await expect(page.getByText("Your own story")).toBeVisible();
  await expect(ui.recordButton).toBeVisible();
  await expect(page.getByRole("button", { name: "Or upload a recording" })).toBeVisible();
  await expect(ui.fileInput).toBeHidden();
  await expectNoAxeViolations(page);
  // The record page's recorder and nothing else: no React here.
  expect(scripts.map((url) => new URL(url).pathname)).toEqual([
    expect.stringMatching(/^\/assets\/recorder-[\w-]+\.js$/),
  ]);

  // Record about two seconds with the fake microphone, listen back, submit.
  await expect(ui.timer).toHaveText("5:00 left");
  await ui.recordButton.click();
  await expect(ui.status).toHaveText("Recording. Press Stop when you have finished.");
  await expect
    .poll(
      async () => {
        const [minutes, seconds] = ((await ui.timer.textContent()) ?? "").split(/[: ]/).map(Number);
        return minutes * 60 + seconds;
      },
      { timeout: 10_000 },
    )
    .toBeLessThanOrEqual(298);
  await ui.stopButton.click();
  await expect(ui.recorder.getByText("Listen to your recording")).toBeVisible();
  await expect(ui.recorder.locator("audio")).toHaveAttribute("src", /^blob:/);
  await expect.poll(() => savedRecording(page, `prompt-${promptId}`)).toMatchObject({ finished: true });
  expect(await answersFor(db, promptId)).toEqual([]);

  await ui.submitButton.click();
  await expect(page).toHaveURL(/[?&]submitted=1$/);
  await expect(ui.result).toHaveText("Sent. Thank you.");
  await expect(page.getByText("It is saved in My stories.")).toBeVisible();
  const [answer] = await answersFor(db, promptId);
  expect(answer).toMatchObject({ content_type: "audio/webm", is_private: false });
  expect(answer.upload_id).not.toBeNull(); // through tus, as on the record page
  expect(answer.duration_ms).toBeGreaterThanOrEqual(1500);
  expect(await storedFiles(promptId)).toHaveLength(1);
  expect(await savedRecording(page, `prompt-${promptId}`)).toBeNull(); // the device copy goes once the server has it
  await expect(page.locator("[data-recorder-root] audio")).toHaveAttribute("src", `/media/answer/${answer.id}`);
  await expectNoAxeViolations(page);
  expect(await notificationTypes(db, me.id, promptId)).toEqual([]); // nobody to tell

  // Back on My Stories: listed with its player and counted in the sidebar.
  await page.getByRole("link", { name: "Back to my stories" }).click();
  await expect(page).toHaveURL(/\/dashboard\/mystories$/);
  const story = page.getByTestId("story").filter({ hasText: TITLE });
  await expect(story.getByRole("heading", { level: 3 })).toHaveText(TITLE);
  await expect(story.getByText(/^Your own story · /)).toBeVisible();
  await expect(story.locator("audio")).toHaveAttribute("src", `/media/answer/${answer.id}`);
  const played = await page.request.get(`/media/answer/${answer.id}`, { headers: { Range: "bytes=0-99" } });
  expect(played.status()).toBe(206);
  await expect(page.getByRole("link", { name: /^My stories\s*1$/ }).first()).toBeVisible();
  // Never a Storyteller I ask: the overview still has none.
  await expect(page.getByRole("link", { name: /^Storytellers\s*0$/ }).first()).toBeVisible();

  await story.getByRole("button", { name: "Make private" }).click();
  await expect(page.getByText("Saved: only you can listen to this story.")).toBeVisible();
  await expect(story.getByText("Private: only you can listen.")).toBeVisible();
  expect((await answersFor(db, promptId))[0].is_private).toBe(true);

  await story.locator("summary", { hasText: "Delete" }).click();
  await story.getByLabel("Yes, delete it").check();
  await story.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByText("Deleted", { exact: true })).toBeVisible();
  await expect(page.getByTestId("story")).toHaveCount(0);
  expect(await answersFor(db, promptId)).toEqual([]);
  expect(await storedFiles(promptId)).toEqual([]);
});

test("answer a question sent to my address by uploading a recording, kept private; start a library story", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const me = await signInAsNewUser(db, context, baseURL!, "Asha");
  const question = await questionFor(db, me.email);
  await page.goto("/dashboard/mystories");
  const waiting = page.getByRole("region", { name: "Questions for you" });
  await expect(waiting.getByText(question.text)).toBeVisible();
  await expect(waiting.getByText(/^Asked by Ravi · /)).toBeVisible();
  await expectNoAxeViolations(page);

  await waiting.getByRole("link", { name: "Answer this question" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/mystories/record/${question.promptId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(question.text);
  await expect(page.getByText("A question from Ravi")).toBeVisible();
  const ui = recorderOf(page);
  if (javaScriptOn()) {
    // The script told Ravi the question was opened, as its record link does.
    await expect.poll(() => notificationTypes(db, question.ravi.id, question.promptId)).toEqual(["listened"]);
    await page.getByRole("button", { name: "Or upload a recording" }).click();
  } else {
    await expect(ui.recorder).toBeHidden();
  }
  await expect(ui.fileInput).toHaveAttribute("accept", "audio/*");
  await expectNoAxeViolations(page);

  // A file that is not audio is refused in plain words, and nothing is kept.
  await ui.fileInput.setInputFiles({
    name: "answer.webm",
    mimeType: "audio/webm",
    buffer: Buffer.from("<html>".repeat(50)),
  });
  await page.getByRole("button", { name: "Send this recording" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Not sent yet: This file is not a voice recording we can use. Please choose the recording your phone, tablet or computer made.",
  );
  expect(await answersFor(db, question.promptId)).toEqual([]);

  if (javaScriptOn()) await page.getByRole("button", { name: "Or upload a recording" }).click();
  await ui.fileInput.setInputFiles({ name: "answer.wav", mimeType: "audio/wav", buffer: wav(3) });
  await page.getByLabel("Keep this answer private").check();
  await page.getByRole("button", { name: "Send this recording" }).click();
  await expect(page).toHaveURL(/[?&]submitted=1$/);
  await expect(ui.result).toHaveText("Sent. Thank you.");
  await expect(page.getByText("Thank you! Ravi will love hearing this.")).toBeVisible();
  await expect(page.getByText("You kept this private. Only you can listen to it.")).toBeVisible();
  const [answer] = await answersFor(db, question.promptId);
  expect(answer).toMatchObject({ content_type: "audio/wav", is_private: true, upload_id: null });
  expect(answer.duration_ms).toBeGreaterThan(2500);
  expect(answer.duration_ms).toBeLessThan(3500);
  await expect
    .poll(() => notificationTypes(db, question.ravi.id, question.promptId))
    .toEqual(javaScriptOn() ? ["listened", "uploaded"] : ["uploaded"]);

  // On My Stories: no longer waiting, listed as my answer to Ravi, private.
  await page.getByRole("link", { name: "Back to my stories" }).click();
  await expect(page.getByRole("region", { name: "Questions for you" })).toHaveCount(0);
  const story = page.getByTestId("story").filter({ hasText: question.text });
  await expect(story.getByText(/^Asked by Ravi · /)).toBeVisible();
  await expect(story.getByText("Private: only you can listen.")).toBeVisible();
  await expect(story.getByRole("button", { name: "Stop keeping it private" })).toBeVisible();

  // A question from the library: pick one in a category, and its recording page opens.
  const category = page.locator("details").filter({ has: page.getByText("Growing up", { exact: true }) });
  await category.getByText("Growing up", { exact: true }).click();
  const choice = category.getByRole("radio").first();
  await choice.check();
  const libraryId = Number(await choice.getAttribute("value"));
  await page.getByRole("button", { name: "Record this question" }).click();
  await expect(page).toHaveURL(/\/dashboard\/mystories\/record\/[0-9a-f-]{36}$/);
  const libraryPrompt = promptIdFrom(page);
  const text = await promptText(db, libraryPrompt);
  const library = await db
    .selectFrom("library_prompts")
    .select("text_en")
    .where("id", "=", libraryId)
    .executeTakeFirstOrThrow();
  expect(text).toBe(library.text_en);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text);
});
