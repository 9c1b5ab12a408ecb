import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createLocalStorage } from "../../app/services/storage.server";
import type { Db } from "../../db/client";
import { createAnswer, createGroup, createStoryteller, createUser } from "../factories";
import { E2E_DATA_DIR } from "./environment";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import { addOwnQuestion, expectAudioPlays, javaScriptOn } from "./group-helpers";

// The refused post below is a 404 by design; the browser logs it.
test.use({ allowedConsoleErrors: [/status of 404/] });

const OWNERS_QUESTION = "Where were you born?";
const ANSWERED = "What was your first home like?";
const TRANSCRIPT = "We lived in a small house by the river.";

/**
 * Someone else's Storyteller (Nani) with one queued question of the owner's and one answered
 * question (the fixture recording, stored where the server reads it), in a group with `collaboratorId`.
 */
async function groupStoryteller(db: Db, collaboratorId: string) {
  const owner = await createUser(db, { first_name: "Priya", nickname: "priya" });
  // Far ahead, so the scheduler never sends anything during the test.
  const storyteller = await createStoryteller(db, {
    ownerId: owner.id,
    nickname: "Nani",
    firstName: "Kamla",
    timeZone: "Asia/Kolkata",
    firstPromptDate: "2031-01-01",
    frequency: "weekly",
    prompts: [OWNERS_QUESTION, { text: ANSWERED, sentAt: new Date() }],
  });
  const [queued, sent] = storyteller.prompts;
  const recording = await readFile("tests/fixtures/recording-3s.webm");
  const key = `answers/${sent.id}/${randomUUID()}.webm`;
  await createLocalStorage(path.resolve(E2E_DATA_DIR, "files")).put(key, recording, "audio/webm");
  const answer = await createAnswer(db, {
    storytellerId: storyteller.id,
    promptId: sent.id,
    storageKey: key,
    contentType: "audio/webm",
    byteSize: recording.byteLength,
    durationMs: 3000,
    transcript: TRANSCRIPT,
    transcriptStatus: "done",
  });
  await createGroup(db, { ownerId: owner.id, storytellerId: storyteller.id, collaborators: [collaboratorId] });
  return { storytellerId: storyteller.id, ownersPromptId: queued.id, answerId: answer.id };
}

test("a collaborator adds and edits their own question, cannot touch the owner's, and hears an answer they cannot delete", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const me = await signInAsNewUser(db, context, baseURL!, "Vikram");
  const family = await groupStoryteller(db, me.id);

  // The Storyteller is on my overview, and opens.
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Nani" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/recipient/${family.storytellerId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nani");
  await expectNoAxeViolations(page);

  // None of the owner's controls: no Edit Storyteller, no pause, no Send now; nothing on the owner's question.
  await expect(page.getByRole("link", { name: "Edit Storyteller" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /pause/i })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send now" })).toHaveCount(0);
  const owners = page.getByTestId("queued-prompt").filter({ hasText: OWNERS_QUESTION });
  await expect(owners.getByRole("link")).toHaveCount(0);
  await expect(owners.getByRole("button")).toHaveCount(0);

  // Add a question: a dialog with JavaScript, its own page without.
  await addOwnQuestion(page, "What songs did your mother sing?");
  const mine = page.getByTestId("queued-prompt").nth(1);
  await expect(mine).toContainText("What songs did your mother sing?");
  await expect(mine).toContainText("Added by you");
  if (javaScriptOn()) {
    // Drag and drop picks up only what I may move.
    await expect(mine).toHaveAttribute("draggable", "true");
    await expect(owners).toHaveAttribute("draggable", "false");
  }

  // Edit it.
  await mine.getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Edit this question").fill("What lullabies did your mother sing?");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question edited successfully" })).toBeVisible();
  await expect(page.getByTestId("queued-prompt").nth(1)).toContainText("What lullabies did your mother sing?");
  expect(
    await db
      .selectFrom("prompts")
      .select(["text", "created_by"])
      .where("storyteller_id", "=", family.storytellerId)
      .where("sent_at", "is", null)
      .orderBy("queue_position")
      .execute(),
  ).toEqual([
    { text: OWNERS_QUESTION, created_by: expect.any(String) },
    { text: "What lullabies did your mother sing?", created_by: me.id },
  ]);

  // The owner's question: no edit form even by its address, and the server refuses a hand-made post.
  await page.goto(`/dashboard/recipient/${family.storytellerId}?edit=${family.ownersPromptId}`);
  await expect(page.getByLabel("Edit this question")).toHaveCount(0);
  const refused = await page.request.post(`/dashboard/recipient/${family.storytellerId}`, {
    form: { intent: "delete", promptId: family.ownersPromptId },
    headers: { Origin: baseURL! },
  });
  expect(refused.status()).toBe(404);
  await expect(page.getByTestId("queued-prompt").filter({ hasText: OWNERS_QUESTION })).toHaveCount(1);

  // The Sent tab: the answer plays, its transcript shows, and there is no way to delete or re-record it.
  await page.getByRole("link", { name: /^Sent/ }).click();
  await expect(page).toHaveURL(/\?sent=true$/);
  const answered = page.getByTestId("sent-prompt").filter({ hasText: ANSWERED });
  await expect(answered).toContainText("Answered");
  await expect(answered.getByTestId("transcript")).toContainText(TRANSCRIPT);
  await expectNoAxeViolations(page);
  const src = await answered.locator("audio").getAttribute("src");
  expect(src).toBe(`/media/answer/${family.answerId}`);
  const audio = await page.request.get(src!);
  expect(audio.status()).toBe(200);
  expect(audio.headers()["content-type"]).toBe("audio/webm");
  if (javaScriptOn()) await expectAudioPlays(answered.locator("audio"));
  await expect(answered.getByText("Delete", { exact: true })).toHaveCount(0);
  await expect(answered.getByText("Re-record", { exact: true })).toHaveCount(0);
  await expect(answered.getByRole("button", { name: "Delete answer" })).toHaveCount(0);
  // Download and Share are theirs too.
  await expect(answered.getByRole("link", { name: "Download" })).toBeVisible();
  await expect(answered.getByRole("button", { name: "Share" })).toBeVisible();
});
