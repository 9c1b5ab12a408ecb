import { createStoryteller, createPrompt } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

const QUESTION = "Which street did you grow up on?";
const FIRST = "We lived on Mill Street, above the bakery.";
const SECOND = "Every morning the whole house smelled of bread.";

test("she replies to the question email in the outbox with two paragraphs; the family reads them on the Sent tab and the Timeline", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Priya");
  // Far from its schedule's first date: only "Send now" sends.
  const nani = await createStoryteller(db, {
    ownerId: user.id,
    nickname: "Nani",
    firstName: "Kamala",
    firstPromptDate: "2031-01-01",
    prompts: [],
  });
  await createPrompt(db, { storytellerId: nani.id, text: QUESTION, createdBy: user.id });
  const { email: her } = await db
    .selectFrom("storytellers")
    .select("email")
    .where("id", "=", nani.id)
    .executeTakeFirstOrThrow();

  await page.goto(`/dashboard/recipient/${nani.id}`);
  await page
    .getByTestId("queued-prompt")
    .filter({ hasText: QUESTION })
    .getByRole("button", { name: "Send now" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "The question will be sent shortly" })).toBeVisible();

  // The question email reaches the outbox; she presses Reply and writes two paragraphs.
  const email = page.getByTestId("outbox-message").filter({ hasText: her! }).filter({ hasText: QUESTION });
  await expect(async () => {
    await page.goto("/dev/outbox");
    await expect(email.getByTestId("email-reply")).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000, intervals: [500, 1000] });
  await expectNoAxeViolations(page);
  const reply = email.getByTestId("email-reply");
  await reply
    .getByLabel("Words of the reply")
    .fill(`${FIRST}\n\n${SECOND}\n\nOn Sunday, Heirloom wrote:\n> ${QUESTION}`);
  await reply.getByRole("button", { name: "Send reply" }).click();
  await expect(page).toHaveURL(/\/dev\/outbox$/);
  // She is thanked, by email, in the outbox.
  await expect(
    page
      .getByTestId("outbox-message")
      .filter({ hasText: her! })
      .filter({ hasText: "Thank you — Priya will read it soon" }),
  ).toHaveCount(1, { timeout: 15_000 });

  // The family reads her words, as she wrote them, without a player: on the Sent tab…
  await page.goto(`/dashboard/recipient/${nani.id}?sent=true`);
  const answer = page.getByTestId("answer");
  await expect(answer.getByTestId("transcript").locator("p")).toHaveText([FIRST, SECOND]);
  await expect(answer.locator("audio")).toHaveCount(0);
  await expectNoAxeViolations(page);

  // …and on the Timeline.
  await page.goto("/dashboard/timeline");
  const item = page.getByTestId("timeline-answer").filter({ hasText: QUESTION });
  await expect(item.getByTestId("transcript").locator("p")).toHaveText([FIRST, SECOND]);
  await expect(item.locator("audio")).toHaveCount(0);
  await expect(item).not.toContainText("Length");
});
