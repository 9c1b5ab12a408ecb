import type { Db } from "../../db/client";
import { createStoryteller, createUser } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

test.use({ allowedConsoleErrors: [/status of 40[04]/] });

async function storytellerWithQueue(db: Db, ownerId: string, texts: string[]) {
  const storyteller = await createStoryteller(db, {
    ownerId,
    nickname: "Nana",
    firstName: "Hari",
    email: "nana@example.com",
    timeZone: "America/Chicago",
    firstPromptDate: "2027-01-01",
    frequency: "weekly",
    prompts: texts,
  });
  return storyteller.id;
}

/** The queue's question texts, in order, without their numbers. */
const queueTexts = (page: import("@playwright/test").Page) =>
  page
    .getByTestId("queued-prompt")
    .evaluateAll((items) => items.map((item) => item.querySelector("p")!.textContent!.replace(/^\d+\.\s*/, "")));

test("manage the queue: reorder, edit, delete, add curated and custom prompts, duplicates refused, board", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Neha");
  const id = await storytellerWithQueue(db, user.id, [
    "Where were you born?",
    "Who was your best friend?",
    "What was your first job?",
  ]);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Nana" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/recipient/${id}$`));
  await expect(page.getByText("Where were you born?").first()).toBeVisible(); // Next Prompt
  await expectNoAxeViolations(page);

  // Move the second question up.
  await page.getByTestId("queued-prompt").nth(1).getByRole("button", { name: "Move up" }).click();
  await expect
    .poll(() => queueTexts(page))
    .toEqual(["Who was your best friend?", "Where were you born?", "What was your first job?"]);

  // Edit the last one in place.
  await page.getByTestId("queued-prompt").nth(2).getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Edit this question").fill("What was your very first job?");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question edited successfully" })).toBeVisible();
  await expect(page.getByTestId("queued-prompt").nth(2)).toContainText("What was your very first job?");

  // Delete the first, with the confirm step.
  await page.getByTestId("queued-prompt").nth(0).getByRole("link", { name: "Delete" }).click();
  await expect(page.getByText("Delete this question?")).toBeVisible();
  await page.getByTestId("queued-prompt").nth(0).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("queued-prompt")).toHaveCount(2);

  // Add one curated and one custom prompt on the Add New Prompt page (with JavaScript the button opens
  // the same form as a dialog: tested below); then try a duplicate.
  await page.goto(`/dashboard/recipient/${id}/prompts/new`);
  await expectNoAxeViolations(page);
  await page.locator("summary", { hasText: /^Everyday joys and thoughts/ }).click();
  const musing = page
    .locator("details")
    .filter({ has: page.locator("summary", { hasText: /^Everyday joys and thoughts/ }) })
    .getByRole("checkbox")
    .first();
  await musing.check();
  await page.getByLabel("Your own questions").fill("What made you laugh this week?");
  await page.getByRole("button", { name: "Add to the queue" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Questions added successfully" })).toBeVisible();
  await expect(page.getByTestId("queued-prompt")).toHaveCount(4);
  await expect(page.getByTestId("queued-prompt").nth(3)).toContainText("What made you laugh this week?");

  await page.goto(`/dashboard/recipient/${id}/prompts/new`);
  await page.getByLabel("Your own questions").fill("what made you laugh this week?");
  await page.getByRole("button", { name: "Add to the queue" }).click();
  await expect(page.getByText("This question is already in the queue")).toBeVisible();
  await page.getByLabel("Your own questions").fill("");
  await page.getByRole("button", { name: "Add to the queue" }).click();
  await expect(page.getByText("No questions selected")).toBeVisible();

  // The board shows the queue, unsent first.
  await page.goto("/dashboard/kanban");
  const column = page.getByTestId("board-column").filter({ hasText: "Nana" });
  await expect(column.locator("li")).toHaveCount(4);
  await expectNoAxeViolations(page);
});

test("another user's Storyteller is a 404, and its queue cannot be changed @same-without-js", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const owner = await createUser(db, { first_name: "Own", nickname: "own" });
  const id = await storytellerWithQueue(db, owner.id, ["What is your favourite song?"]);
  const prompt = await db.selectFrom("prompts").select("id").where("storyteller_id", "=", id).executeTakeFirstOrThrow();
  await signInAsNewUser(db, context, baseURL!, "Intruder");
  const response = await page.goto(`/dashboard/recipient/${id}`);
  expect(response?.status()).toBe(404);
  const post = await page.request.post(`/dashboard/recipient/${id}`, {
    form: { intent: "delete", promptId: prompt.id },
    headers: { Origin: baseURL! },
  });
  expect(post.status()).toBe(404);
  expect(await db.selectFrom("prompts").select("id").where("id", "=", prompt.id).executeTakeFirst()).toBeTruthy();
});

test("edit a Storyteller, then delete them with everything sent", async ({ page, context, db, baseURL }) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Imran");
  const id = await storytellerWithQueue(db, user.id, ["What was your wedding day like?"]);
  await page.goto(`/dashboard/recipient/${id}`);
  await page.getByRole("link", { name: "Edit Storyteller" }).click();
  await expectNoAxeViolations(page);
  await page.getByLabel("Nickname").fill("Nanaji");
  await page.getByLabel("Twice a month").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Storyteller updated" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nanaji");
  expect(
    (await db.selectFrom("schedules").select("frequency").where("storyteller_id", "=", id).executeTakeFirstOrThrow())
      .frequency,
  ).toBe("bimonthly");

  await page.getByRole("link", { name: "Edit Storyteller" }).click();
  await page.getByLabel("I understand that this cannot be undone").check();
  await page.getByRole("button", { name: "Delete Storyteller" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("status").filter({ hasText: "Storyteller deleted" })).toBeVisible();
  expect(await db.selectFrom("prompts").select("id").where("storyteller_id", "=", id).execute()).toEqual([]);
});

test.describe("with JavaScript", () => {
  test.skip(() => test.info().project.use.javaScriptEnabled === false, "enhancements that need JavaScript");

  test("drag and drop reorders the queue, and the order is saved", async ({ page, context, db, baseURL }) => {
    const user = await signInAsNewUser(db, context, baseURL!, "Tara");
    const id = await storytellerWithQueue(db, user.id, [
      "First question here?",
      "Second question here?",
      "Third question here?",
    ]);
    await page.goto(`/dashboard/recipient/${id}`);
    await page.getByTestId("queued-prompt").nth(0).dragTo(page.getByTestId("queued-prompt").nth(2));
    await expect
      .poll(() => queueTexts(page))
      .toEqual(["Second question here?", "Third question here?", "First question here?"]);
    await expect
      .poll(async () =>
        (
          await db
            .selectFrom("prompts")
            .select("text")
            .where("storyteller_id", "=", id)
            .orderBy("queue_position")
            .execute()
        ).map((p) => p.text),
      )
      .toEqual(["Second question here?", "Third question here?", "First question here?"]);
    await page.reload();
    await expect
      .poll(() => queueTexts(page))
      .toEqual(["Second question here?", "Third question here?", "First question here?"]);
  });

  test("Add New Prompt opens as a dialog", async ({ page, context, db, baseURL }) => {
    const user = await signInAsNewUser(db, context, baseURL!, "Zoya");
    const id = await storytellerWithQueue(db, user.id, ["Only question so far?"]);
    await page.goto(`/dashboard/recipient/${id}`);
    await page.getByRole("link", { name: "Add questions" }).click();
    const dialog = page.getByRole("dialog", { name: "Add questions" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/dashboard/recipient/${id}$`));
    await dialog.getByLabel("Your own questions").fill("What is your earliest memory?");
    await dialog.getByRole("button", { name: "Add to the queue" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "Questions added successfully" })).toBeVisible();
    await expect(page.getByTestId("queued-prompt")).toHaveCount(2);
  });
});
