import type { Page } from "@playwright/test";
import type { Db } from "../../db/client";
import { createStoryteller } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

const TEXTS = Array.from({ length: 12 }, (_, i) => `Question number ${i + 1}, what do you remember?`);

async function longQueue(db: Db, ownerId: string, language: "en" | "hi" = "en") {
  const storyteller = await createStoryteller(db, { ownerId, nickname: "Nana", language, prompts: TEXTS });
  return storyteller.id;
}

const queueTexts = (page: Page) =>
  page.getByTestId("queued-prompt").evaluateAll((items) => items.map((item) => item.querySelector("p")!.textContent!));

const withJs = () => test.info().project.use.javaScriptEnabled !== false;

test("reorder far down the queue: the page comes back to the item, scroll kept, focus kept", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Meera");
  const id = await longQueue(db, user.id);
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto(`/dashboard/recipient/${id}`);
  const tenth = page.getByTestId("queued-prompt").nth(9);
  await tenth.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  expect(before).toBeGreaterThan(300);

  await tenth.getByRole("button", { name: "Move up" }).click();
  await expect.poll(async () => (await queueTexts(page))[8]).toContain("Question number 10,");
  const moved = page.locator("li", { hasText: "Question number 10," });
  // With JavaScript nothing reloads and the page stays put; without it the anchor brings it back to the row.
  if (withJs()) {
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - before)).toBeLessThan(80);
    await expect(moved.getByRole("button", { name: "Move up" })).toBeFocused();
    await page.keyboard.press("Enter"); // the keyboard moves it again, the focus following
    await expect.poll(async () => (await queueTexts(page))[7]).toContain("Question number 10,");
    await expect(moved.getByRole("button", { name: "Move up" })).toBeFocused();
  } else {
    expect(page.url()).toContain(`#prompt-`);
    await expect(moved).toBeInViewport();
  }

  // Move to top, then Delete's confirmation opens where the click was.
  await page.getByTestId("queued-prompt").nth(11).scrollIntoViewIfNeeded();
  await page.getByTestId("queued-prompt").nth(11).getByRole("button", { name: "Move to top" }).click();
  await expect.poll(async () => (await queueTexts(page))[0]).toContain("Question number 12,");
  // The last item by its words: a late revalidation may still re-render the list, and its place
  // (nth) would then name another item than the one clicked.
  const lastText = (await queueTexts(page))[11];
  const last = page.getByTestId("queued-prompt").filter({ has: page.getByText(lastText, { exact: true }) });
  await last.scrollIntoViewIfNeeded();
  await last.getByRole("link", { name: "Delete" }).click();
  await expect(last.getByText("Delete this question?")).toBeInViewport();
  await last.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("queued-prompt")).toHaveCount(11);
  const saved = await db
    .selectFrom("prompts")
    .select("text")
    .where("storyteller_id", "=", id)
    .orderBy("queue_position")
    .execute();
  expect(saved[0].text).toContain("Question number 12,");
  await expectNoAxeViolations(page);
});

test("the picker: search in English and Hindi, counts, queued questions marked, duplicates refused", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Kabir");
  const storyteller = await createStoryteller(db, { ownerId: user.id, nickname: "Dadi", prompts: [] });
  const picker = `/dashboard/recipient/${storyteller.id}/prompts/new`;
  await page.goto(picker);
  await expect(page.getByTestId("starter-set").getByRole("checkbox")).toHaveCount(5);
  await expect(page.locator("summary", { hasText: "Wisdom to pass on" })).toContainText("25 questions");

  await page.getByLabel("Find a question (English or Hindi words)").fill("song");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status").filter({ hasText: /questions? ha(s|ve) "song"/ })).toBeVisible();
  const song = page.getByRole("checkbox", { name: /Which song always lifts your spirits/ });
  await song.check();
  await page.getByRole("button", { name: "Add to the queue" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Questions added successfully" })).toBeVisible();

  // The same question, found by its Hindi words: already queued, not addable.
  await page.goto(`${picker}?q=${encodeURIComponent("गीत")}`);
  const again = page.getByRole("checkbox", { name: /Which song always lifts your spirits/ });
  await expect(again).toBeDisabled();
  await expect(page.getByText("Already queued")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add to the queue" })).toBeInViewport();
  await expectNoAxeViolations(page);

  // A hand-made post of it is refused by the server too.
  const libraryId = await again.getAttribute("value");
  const post = await page.request.post(picker, {
    form: { libraryPromptIds: libraryId! },
    headers: { Origin: baseURL! },
  });
  expect(post.status()).toBe(400);
  expect(
    await db.selectFrom("prompts").select("id").where("storyteller_id", "=", storyteller.id).execute(),
  ).toHaveLength(1);
});

test.describe("a refused post", () => {
  // The refusal is the page's own 400, which Chromium logs as a failed resource.
  test.use({ allowedConsoleErrors: [/status of 400/] });

  test("the picker keeps his ticks across two searches, lists them, and adds them all with his own", async ({
    page,
    context,
    db,
    baseURL,
  }) => {
    const user = await signInAsNewUser(db, context, baseURL!, "Arjun");
    const dadi = await createStoryteller(db, { ownerId: user.id, nickname: "Dadi", language: "hi", prompts: [] });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/dashboard/recipient/${dadi.id}/prompts/new`);
    // Her questions are in Hindi; he reads each in English beside hers.
    const songName = /हमेशा.*Which song always lifts your spirits/;
    const results = page.locator("details");
    const song = results.getByRole("checkbox", { name: songName });
    const school = results.getByRole("checkbox", { name: /स्कूल.*What was your school like/ });
    const picked = page.getByTestId("picked");
    const search = async (words: string) => {
      await page.getByLabel("Find a question (English or Hindi words)").fill(words);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("status").filter({ hasText: `"${words}"` })).toBeVisible();
    };

    await page.getByLabel("Your own questions").fill("What did you cook for Diwali?");
    await search("spirits");
    await song.check();
    await search("teacher");
    // Out of sight, the first tick is kept: listed under "selected", still ticked.
    await expect(song).toHaveCount(0);
    await expect(picked.getByRole("checkbox", { name: songName })).toBeChecked();
    await school.check();
    // With JavaScript the count follows each tick; without it, the next search counts them.
    if (test.info().project.use.javaScriptEnabled !== false)
      await expect(picked.getByRole("heading")).toHaveText("2 selected");
    await search("garden");
    await expect(picked.getByRole("heading")).toHaveText("2 selected");
    await expect(picked).toContainText("Which song always lifts your spirits");
    await expect(picked).toContainText("What was your school like");
    await expect(page.getByLabel("Your own questions")).toHaveValue("What did you cook for Diwali?");
    await expectNoAxeViolations(page);

    // All questions again: each tick shows where the question is (the song also in the suggestions).
    await page.getByRole("button", { name: "Show all questions" }).click();
    await expect(song).toHaveCount(2);
    await expect(song.first()).toBeChecked();
    await expect(song.last()).toBeChecked();
    await expect(school).toBeChecked();
    // A refused post (his second question too long) keeps every tick, with JavaScript and without:
    // the one made after the last search too, which the page's address does not hold.
    // (Among the suggestions too: the first of its two boxes.)
    const firstJob = results.getByRole("checkbox", { name: /What was your very first job/ }).first();
    await firstJob.check();
    const own = page.getByLabel("Your own questions");
    await own.fill(`What did you cook for Diwali?\n${"x".repeat(301)}`);
    await page.getByRole("button", { name: "Add to the queue" }).click();
    await expect(page.getByText(/Question 2 is too long/)).toBeVisible();
    await expect(firstJob).toBeChecked();
    await expect(school).toBeChecked();
    await expect(song.first()).toBeChecked();
    await own.fill("What did you cook for Diwali?");
    await page.getByRole("button", { name: "Add to the queue" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Questions added successfully" })).toBeVisible();
    const queue = await db.selectFrom("prompts").select("text").where("storyteller_id", "=", dadi.id).execute();
    expect(queue.map((p) => p.text).sort()).toEqual(
      [
        "What did you cook for Diwali?",
        "आपका सबसे पहला काम या नौकरी क्या थी, और उससे आपने क्या सीखा?",
        "आपका स्कूल कैसा था, और कौन-से अध्यापक आपको आज भी याद हैं?",
        "कौन-सा गीत हमेशा आपका मन ख़ुश कर देता है, और वह कौन-सी यादें ताज़ा करता है?",
      ].sort(),
    );
  });
});
