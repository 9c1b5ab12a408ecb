import type { Page } from "@playwright/test";
import { createStoryteller, createUser } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import { chooseDeliveryMethod } from "./storyteller-form";

// Steps with mistakes are answered with 400 when JavaScript is off, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 400/] });

async function next(page: Page) {
  await page.getByRole("button", { name: "Next" }).click();
}

test("add a Storyteller reached by email, with library and custom questions", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Priya");
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Add Storyteller" }).last().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add a Storyteller");
  await expectNoAxeViolations(page);

  // Step 1, with its mistakes first: a one-letter nickname and no email for email delivery.
  await page.getByLabel("Nickname").fill("N");
  await page.getByLabel("First name").fill("Kamla");
  await next(page);
  await expect(page.getByText("Too short")).toBeVisible();
  await expect(page.getByText("Email is required")).toBeVisible();
  await page.getByLabel("Nickname").fill("Nani");
  await page.getByLabel("Their email").fill("nani@example.com");
  await page.getByRole("combobox", { name: "Their time zone" }).selectOption("Asia/Kolkata");
  await next(page);

  // Step 2: two library questions and one of our own; a 301-character one is refused.
  await expect(page).toHaveURL(/step=2/);
  await expectNoAxeViolations(page);
  await page.getByText("Growing up", { exact: true }).click();
  const growingUp = page.locator("details").filter({ has: page.locator("summary", { hasText: /^Growing up$/ }) });
  await growingUp.getByRole("checkbox").nth(0).check();
  await growingUp.getByRole("checkbox").nth(1).check();
  await page.getByLabel("Your own questions").fill("x".repeat(301));
  await next(page);
  // Under the box, naming the line and by how much; what was typed stays to be shortened.
  await expect(page.getByText("Question 1 is too long — 301 of 300 characters")).toBeVisible();
  await expect(page.getByLabel("Your own questions")).toHaveValue("x".repeat(301));
  await expect(page.getByLabel("Your own questions")).toHaveAttribute("aria-invalid", "true");
  // The ticked questions are still ticked after the refusal.
  await expect(growingUp.getByRole("checkbox").nth(0)).toBeChecked();
  await expect(growingUp.getByRole("checkbox").nth(1)).toBeChecked();
  await page.getByLabel("Your own questions").fill("What song did you sing to me as a baby?");
  await next(page);

  // Step 3: schedule and review, then add.
  await expect(page).toHaveURL(/step=3/);
  await expect(page.getByRole("region", { name: "Review" })).toContainText("nani@example.com");
  await expectNoAxeViolations(page);
  await page.getByLabel("Monthly").check();
  await page.getByRole("button", { name: "Add Storyteller" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("status").filter({ hasText: "New Storyteller added" })).toBeVisible();
  const card = page.getByTestId("storyteller-card").filter({ hasText: "Nani" });
  await expect(card).toBeVisible();
  await expectNoAxeViolations(page);

  const storyteller = await db
    .selectFrom("storytellers")
    .select(["id", "email", "time_zone"])
    .where("owner_id", "=", user.id)
    .executeTakeFirstOrThrow();
  expect(storyteller).toMatchObject({ email: "nani@example.com", time_zone: "Asia/Kolkata" });
  const prompts = await db
    .selectFrom("prompts")
    .select(["text", "queue_position", "is_custom"])
    .where("storyteller_id", "=", storyteller.id)
    .orderBy("queue_position")
    .execute();
  expect(prompts).toHaveLength(3);
  expect(prompts[2]).toMatchObject({ text: "What song did you sing to me as a baby?", is_custom: true });
  await expect(card).toContainText(prompts[0].text);
  const schedule = await db
    .selectFrom("schedules")
    .select(["frequency"])
    .where("storyteller_id", "=", storyteller.id)
    .executeTakeFirstOrThrow();
  expect(schedule.frequency).toBe("monthly");
});

test("two posts of Add Storyteller at once, as a double click sends them without JavaScript, make one Storyteller @same-without-js", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Arjun");
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/dashboard/onboarding");
  await page.getByLabel("Nickname").fill("Dadi");
  await page.getByLabel("First name").fill("Kamla");
  await page.getByLabel("Their email").fill("dadi@example.com");
  await next(page);
  await expect(page).toHaveURL(/step=2/);
  await page.getByLabel("Your own questions").fill("What did you cook for Diwali?");
  await next(page);
  await expect(page).toHaveURL(/step=3/);
  // The last step's post, as the browser would send it (its submission id included), sent twice at
  // once: two requests in flight together, as a double click without JavaScript makes them.
  const add = page.getByRole("button", { name: "Add Storyteller" });
  const form = page.locator("form").filter({ has: add });
  const fields = await form.evaluate((element: HTMLFormElement) =>
    [...new FormData(element).entries()].map(([name, value]) => [name, String(value)]),
  );
  expect(fields.some(([name]) => name === "submissionId")).toBe(true);
  const body = new URLSearchParams([...fields, ["intent", (await add.getAttribute("value"))!]]).toString();
  const post = () =>
    page.request.post("/dashboard/onboarding?step=3", {
      data: body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseURL! },
      maxRedirects: 0,
    });
  const answers = await Promise.all([post(), post()]);
  // Both follow the one Storyteller to the dashboard.
  for (const answer of answers) {
    expect(answer.status()).toBe(302);
    expect(answer.headers().location).toBe("/dashboard");
  }
  const made = await db.selectFrom("storytellers").select("id").where("owner_id", "=", user.id).execute();
  expect(made).toHaveLength(1);
  expect(await db.selectFrom("prompts").select("id").where("storyteller_id", "=", made[0].id).execute()).toHaveLength(
    1,
  );
  await page.goto("/dashboard");
  await expect(page.getByTestId("storyteller-card").filter({ hasText: "Dadi" })).toHaveCount(1);
});

test("Enter in a field goes on to the next step, and an email typed before choosing a text is not held against her", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  await signInAsNewUser(db, context, baseURL!, "Meera");
  await page.goto("/dashboard/onboarding");
  await page.getByLabel("Nickname").fill("Nani");
  await page.getByLabel("First name").fill("Kamla");
  await page.getByLabel("Their email").fill("nani@"); // half an address, then she chooses texts
  await chooseDeliveryMethod(page, "Text message");
  await page.getByLabel("Their phone number").fill("(416) 555-0177");
  await page.getByLabel("Their phone number").press("Enter");
  await expect(page).toHaveURL(/step=2/);
  await expect(page.getByLabel("Your own questions")).toBeVisible();
});

test("add a Storyteller reached by text message; a UK number is refused", async ({ page, context, db, baseURL }) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Arjun");
  await page.goto("/dashboard/onboarding");
  await page.getByLabel("Nickname").fill("Dadaji");
  await page.getByLabel("First name").fill("Ramesh");
  await chooseDeliveryMethod(page, "Text message");
  await page.getByLabel("Their phone number").fill("+44 7400 123456");
  await page.getByRole("combobox", { name: "Their language" }).selectOption("hi");
  await next(page);
  // The refusal says what the number can get instead (a UK mobile: WhatsApp).
  await expect(page.getByText("Text messages go only to US and Canadian mobile numbers.")).toBeVisible();
  await expect(page.getByText("This number can get WhatsApp messages.")).toBeVisible();
  await page.getByLabel("Their phone number").fill("(416) 555-0199");
  await next(page);
  await expect(page).toHaveURL(/step=2/);
  // The library's categories are in his language, its questions in hers (with his beside them).
  await expect(page.locator("summary", { hasText: "Growing up" })).toBeVisible();
  await page.locator("summary", { hasText: "Growing up" }).click();
  await expect(page.getByRole("checkbox", { name: /[\u0900-\u097F]/ }).first()).toBeVisible();
  await next(page);
  await expect(page).toHaveURL(/step=3/);
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page).toHaveURL(/step=2/);
  await next(page);
  await expect(page).toHaveURL(/step=3/);
  await page.getByRole("button", { name: "Add Storyteller" }).click();
  await expect(page.getByRole("status").filter({ hasText: "New Storyteller added" })).toBeVisible();
  const storyteller = await db
    .selectFrom("storytellers")
    .select(["delivery_method", "phone_e164", "language"])
    .where("owner_id", "=", user.id)
    .executeTakeFirstOrThrow();
  expect(storyteller).toEqual({ delivery_method: "sms", phone_e164: "+14165550199", language: "hi" });
});

test("add a Storyteller reached by phone call: a US or Canadian number and their consent", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Kiran");
  await page.goto("/dashboard/onboarding");
  await page.getByLabel("Nickname").fill("Nanaji");
  await page.getByLabel("First name").fill("Mohan");
  await chooseDeliveryMethod(page, "Phone call");
  await page.getByLabel("Their phone number").fill("+91 98765 43210");
  await next(page);
  await expect(page.getByText("Please confirm that they agreed to be called")).toBeVisible();
  await page.getByLabel(/They agreed to be called by Heirloom/).check();
  await next(page);
  // No answer-by-phone line in India here (TWILIO_VOICE_NUMBERS names none): the form says what it can get.
  await expect(
    page.getByText("Heirloom has no phone line in this number's country yet, so it cannot call it."),
  ).toBeVisible();
  await expect(page.getByText("This number can get WhatsApp messages.")).toBeVisible();
  await expect(page.getByLabel(/They agreed to be called by Heirloom/)).toBeChecked();
  await page.getByLabel("Their phone number").fill("(416) 555-0142");
  await next(page);
  await expect(page).toHaveURL(/step=2/);
  await page.getByLabel("Your own questions").fill("What did your father do for a living?");
  await next(page);
  await expect(page.getByRole("region", { name: "Review" })).toContainText("Phone call");
  await page.getByRole("button", { name: "Add Storyteller" }).click();
  await expect(page.getByRole("status").filter({ hasText: "New Storyteller added" })).toBeVisible();
  await expect(page.getByTestId("storyteller-card").filter({ hasText: "Nanaji" })).toContainText("Phone call");

  const storyteller = await db
    .selectFrom("storytellers")
    .select(["id", "delivery_method", "phone_e164", "call_consent"])
    .where("owner_id", "=", user.id)
    .executeTakeFirstOrThrow();
  expect(storyteller).toMatchObject({ delivery_method: "call", phone_e164: "+14165550142", call_consent: "granted" });
  // The edit form shows the method and the consent already given.
  await page.goto(`/dashboard/recipient/${storyteller.id}/edit`);
  await expect(page.getByLabel("Phone call")).toBeChecked();
  await expect(page.getByLabel(/They agreed to be called by Heirloom/)).toBeChecked();
  await expectNoAxeViolations(page);
});

test("another user's Storytellers never show @same-without-js", async ({ page, context, db, baseURL }) => {
  const owner = await createUser(db, { first_name: "Owner", nickname: "owner" });
  await createStoryteller(db, {
    ownerId: owner.id,
    nickname: "SecretGran",
    firstName: "S",
    email: "s@example.com",
    timeZone: "UTC",
  });
  await signInAsNewUser(db, context, baseURL!, "Viewer");
  await page.goto("/dashboard");
  await expect(page.getByText("No Storytellers yet")).toBeVisible();
  await expect(page.getByText("SecretGran")).toHaveCount(0);
});
