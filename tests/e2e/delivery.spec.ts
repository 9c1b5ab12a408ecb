import type { BrowserContext, Locator, Page } from "@playwright/test";
import { firstSendAt } from "../../app/models/schedule";
import type { Db } from "../../db/client";
import { createStoryteller } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import { chooseDeliveryMethod } from "./storyteller-form";

// A tampered record link is a 404 and a refused test send a 400; the browser logs both.
test.use({ allowedConsoleErrors: [/status of 40[04]/] });

const suffix = () => Math.random().toString(36).slice(2, 10);

/** A date about three months ahead, so the scheduler's tick never sends anything during a test. */
function farFirstPromptDate() {
  return new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
}

/** An email Storyteller with a weekly schedule and these questions queued, arranged directly (as prompt-queue.spec.ts does). */
async function emailStorytellerWithQueue(db: Db, ownerId: string, texts: string[]) {
  const email = `nana.${suffix()}@example.com`;
  const timeZone = "America/Chicago";
  const firstPromptDate = farFirstPromptDate();
  const storyteller = await createStoryteller(db, {
    ownerId,
    nickname: "Nana",
    firstName: "Hari",
    email,
    timeZone,
    firstPromptDate,
    frequency: "weekly",
    nextSendAt: firstSendAt({ firstPromptDate, frequency: "weekly", timeZone }),
    prompts: texts,
  });
  return { id: storyteller.id, email };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Outbox entries addressed to `to` (exactly), optionally containing `hasText`. */
function outboxMessages(page: Page, to: string, hasText?: string | RegExp): Locator {
  const addressed = page
    .getByTestId("outbox-message")
    .filter({ has: page.getByTestId("outbox-to").filter({ hasText: new RegExp(`^${escapeRegExp(to)}$`) }) });
  return hasText ? addressed.filter({ hasText }) : addressed;
}

/** Reloads /dev/outbox until a message to `to` (with `hasText`) shows, for up to 15 s (the worker polls every 2 s). */
async function waitForOutboxMessage(page: Page, to: string, hasText?: string | RegExp): Promise<Locator> {
  const message = outboxMessages(page, to, hasText);
  await expect(async () => {
    await page.goto("/dev/outbox");
    await expect(message.first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000, intervals: [500, 1000] });
  return message;
}

/** One of the candidate zones where it is now between 09:00 and 20:00 (inside the 08:00–21:00 texting window, with margin). */
function daytimeZone(now = new Date()) {
  const candidates = ["Europe/London", "America/New_York", "Asia/Kolkata", "Pacific/Honolulu", "Australia/Sydney"];
  const hourIn = (timeZone: string) =>
    Number(new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(now));
  const zone = candidates.find((timeZone) => hourIn(timeZone) >= 9 && hourIn(timeZone) < 20);
  if (!zone) throw new Error(`no candidate zone is in daytime at ${now.toISOString()}`);
  return zone;
}

/** Changes one character in the middle of the JWT's signature (the last character may only carry padding bits). */
function tamper(token: string) {
  const at = token.length - 10;
  const replacement = token[at] === "A" ? "B" : "A";
  return token.slice(0, at) + replacement + token.slice(at + 1);
}

/**
 * Signs in, queues two questions for an email Storyteller, presses "Send now" on the first and
 * waits for the email in the outbox. Returns the links it carries.
 */
async function sendFirstQuestionByEmail(page: Page, context: BrowserContext, db: Db, baseURL: string) {
  const user = await signInAsNewUser(db, context, baseURL, "Asha");
  const storyteller = await emailStorytellerWithQueue(db, user.id, [
    "What was your first home like?",
    "Who taught you to cook?",
  ]);
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByTestId("queued-prompt")).toHaveCount(2);
  await page.getByTestId("queued-prompt").nth(0).getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The question will be sent shortly" })).toBeVisible();

  // The send job writes the email to the outbox.
  const email = await waitForOutboxMessage(page, storyteller.email);
  await expect(email).toHaveCount(1);
  await expect(email.getByRole("heading", { level: 2 })).toHaveText(`${user.first_name} has a question for you`);
  const body = await email.locator("pre").innerText();
  expect(body).toContain("What was your first home like?");
  expect(body).not.toContain("Who taught you to cook?");
  const recordUrl = body.match(/https?:\/\/\S+\/record\/\S+/)?.[0];
  const unsubscribeUrl = body.match(/https?:\/\/\S+\/unsubscribe\/\S+/)?.[0];
  expect(recordUrl).toMatch(/\?lng=en$/);
  expect(unsubscribeUrl).toMatch(/\?lng=en$/);
  return { user, storyteller, recordUrl: recordUrl!, unsubscribeUrl: unsubscribeUrl! };
}

test("Send now emails the question; its record link shows it, a tampered link is a 404, and the Sent tab lists it", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { user, storyteller, recordUrl } = await sendFirstQuestionByEmail(page, context, db, baseURL!);

  // The record link shows the question and who asked.
  const recordResponse = await page.goto(recordUrl);
  expect(recordResponse?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What was your first home like?");
  await expect(page.getByText(`From ${user.first_name}`)).toBeVisible();
  await expectNoAxeViolations(page);

  // A link with one character changed is refused.
  const token = new URL(recordUrl).pathname.split("/").pop()!;
  const tamperedResponse = await page.goto(`/record/${tamper(token)}?lng=en`);
  expect(tamperedResponse?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Question not found");
  await expect(page.locator("blockquote")).toHaveCount(0);

  // The Sent tab has the question; the queue keeps the other one.
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByTestId("queued-prompt")).toHaveCount(1);
  await expect(page.getByTestId("queued-prompt")).toContainText("Who taught you to cook?");
  await page.getByRole("link", { name: "Sent (1)" }).click();
  await expect(page).toHaveURL(/\?sent=true$/);
  await expect(page.getByTestId("sent-prompt")).toHaveCount(1);
  await expect(page.getByTestId("sent-prompt")).toContainText("What was your first home like?");
  await expectNoAxeViolations(page);
});

test("the unsubscribe link from a sent email asks first, then stops email to the Storyteller", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { user, storyteller, unsubscribeUrl } = await sendFirstQuestionByEmail(page, context, db, baseURL!);

  // Opening the link only asks (mail scanners open links).
  const response = await page.goto(unsubscribeUrl);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unsubscribe");
  await expect(page.getByText(`Stop getting questions from ${user.first_name} through`)).toContainText(
    storyteller.email,
  );
  await expectNoAxeViolations(page);
  expect(
    (
      await db
        .selectFrom("storytellers")
        .select("unsubscribed_at")
        .where("id", "=", storyteller.id)
        .executeTakeFirstOrThrow()
    ).unsubscribed_at,
  ).toBeNull();

  // The page's Referrer-Policy (strict-origin) makes this post carry our Origin, not "Origin: null".
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Unsubscribed successfully" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unsubscribed successfully");
  await expectNoAxeViolations(page);
  await expect(page.getByText(`You will get no more questions at ${storyteller.email}`)).toBeVisible();
  expect(
    (
      await db
        .selectFrom("storytellers")
        .select("unsubscribed_at")
        .where("id", "=", storyteller.id)
        .executeTakeFirstOrThrow()
    ).unsubscribed_at,
  ).not.toBeNull();

  // The Storyteller page says so; Send now is refused with a reason, and nothing more is sent.
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByTestId("delivery-state")).toContainText(
    "Unsubscribed: Hari asked to get no more emails. Nothing is sent.",
  );
  await expectNoAxeViolations(page);
  await page.getByTestId("queued-prompt").nth(0).getByRole("button", { name: "Send now" }).click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: "Nothing was sent: this Storyteller can't receive questions right now (see why above)." }),
  ).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "The question will be sent shortly" })).toHaveCount(0);
  await expect(page.getByTestId("queued-prompt")).toHaveCount(1);
  await expect(page.getByTestId("queued-prompt")).toContainText("Who taught you to cook?");
  const deliveries = await db
    .selectFrom("deliveries")
    .innerJoin("prompts", "prompts.id", "deliveries.prompt_id")
    .select("prompts.text")
    .where("prompts.storyteller_id", "=", storyteller.id)
    .execute();
  expect(deliveries.map((d) => d.text)).toEqual(["What was your first home like?"]);
  await page.goto("/dev/outbox");
  await expect(outboxMessages(page, storyteller.email)).toHaveCount(1);
});

test("one-click unsubscribe from a mail client, then the page says so and passes axe @same-without-js", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { storyteller, unsubscribeUrl } = await sendFirstQuestionByEmail(page, context, db, baseURL!);
  // RFC 8058 one-click, as a mail client sends it: no cookie, no Origin header.
  const oneClick = await page.request.post(unsubscribeUrl, { form: { "List-Unsubscribe": "One-Click" } });
  expect(oneClick.status()).toBe(200);
  expect(await oneClick.text()).toContain("Unsubscribed successfully");
  expect(
    (
      await db
        .selectFrom("storytellers")
        .select("unsubscribed_at")
        .where("id", "=", storyteller.id)
        .executeTakeFirstOrThrow()
    ).unsubscribed_at,
  ).not.toBeNull();
  await page.goto(unsubscribeUrl);
  await expect(page.getByText("You are already unsubscribed.")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a texted Storyteller's consent: the request, YES through the outbox, then STOP", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Asha");
  const timeZone = daytimeZone();
  // STOP applies to the number everywhere, so each run of this test texts its own number (the
  // projects share one database). 415-555-xxxx is valid for libphonenumber.
  const line = `${test.info().project.use.javaScriptEnabled === false ? 3 : 2}${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}`;
  const phone = `+1415555${line}`;

  await page.goto("/dashboard/onboarding");
  await page.getByLabel("Nickname").fill("Dadi");
  await page.getByLabel("First name").fill("Kamla");
  await chooseDeliveryMethod(page, "Text message");
  await page.getByLabel("Their phone number").fill(`(415) 555-${line}`);
  await page.getByRole("combobox", { name: "Their time zone" }).selectOption(timeZone);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=2/);
  // The address changes before step 2 is on screen; step 1 has a "Next" button too.
  await expect(page.getByLabel("Your own questions")).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=3/);
  await page.getByLabel("Date of the first question").fill(farFirstPromptDate());
  await page.getByRole("button", { name: "Add Storyteller" }).click();
  await expect(page.getByRole("status").filter({ hasText: "New Storyteller added" })).toBeVisible();
  const storyteller = await db
    .selectFrom("storytellers")
    .select(["id", "phone_e164", "time_zone", "sms_consent"])
    .where("owner_id", "=", user.id)
    .executeTakeFirstOrThrow();
  expect(storyteller).toMatchObject({ phone_e164: phone, time_zone: timeZone, sms_consent: "requested" });

  // The consent request is texted at once (it is daytime there) and lands in the outbox.
  const consentRequest = await waitForOutboxMessage(page, phone, "Reply YES");
  await expect(consentRequest).toHaveCount(1);
  await expect(consentRequest).toContainText(
    `${user.first_name} would like to send you a question about your life every week by text`,
  );
  await expect(consentRequest).toContainText("Msg & data rates may apply");
  await expect(async () => {
    await page.goto("/dev/outbox");
    await expect(consentRequest).toContainText("delivered to the outbox", { timeout: 500 });
  }).toPass({ timeout: 15_000, intervals: [500, 1000] });

  const waiting = "Waiting for Kamla to reply YES to our first text. Questions start after that.";
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByTestId("delivery-state")).toContainText(waiting);
  await expectNoAxeViolations(page);

  // YES from the Storyteller's phone: a thank-you text, and the waiting message goes.
  await page.goto("/dev/outbox");
  await consentRequest.getByLabel("Reply from this number").fill("YES");
  await consentRequest.getByRole("button", { name: "Send reply" }).click();
  await expect(page).toHaveURL(/\/dev\/outbox$/);
  await expect(outboxMessages(page, phone, "Thank you! You will get questions from Asha by text.")).toHaveCount(1);
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByTestId("delivery-state")).toBeVisible();
  await expect(page.getByText(waiting)).toHaveCount(0);
  await expect(page.getByTestId("delivery-state").locator(".text-danger")).toHaveCount(0);
  expect(
    (
      await db
        .selectFrom("storytellers")
        .select("sms_consent")
        .where("id", "=", storyteller.id)
        .executeTakeFirstOrThrow()
    ).sms_consent,
  ).toBe("granted");

  // STOP: the Storyteller page says they opted out.
  await page.goto("/dev/outbox");
  await consentRequest.getByLabel("Reply from this number").fill("STOP");
  await consentRequest.getByRole("button", { name: "Send reply" }).click();
  await expect(page).toHaveURL(/\/dev\/outbox$/);
  await expect(outboxMessages(page, phone, "You are unsubscribed and will get no more texts.")).toHaveCount(1);
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByTestId("delivery-state")).toContainText(
    "Kamla texted STOP: nothing is sent until they reply START.",
  );
  await expect(page.getByText(waiting)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("pause and resume sending on the Storyteller page", async ({ page, context, db, baseURL }) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Asha");
  const storyteller = await emailStorytellerWithQueue(db, user.id, [
    "What games did you play as a child?",
    "What was your school like?",
  ]);
  const nextQuestion = async () => {
    const { next_send_at } = await db
      .selectFrom("schedules")
      .select("next_send_at")
      .where("storyteller_id", "=", storyteller.id)
      .executeTakeFirstOrThrow();
    const when = new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeZone: "America/Chicago" }).format(
      next_send_at!,
    );
    return `Next question: ${when}, at 10:00 in Chicago, United States`;
  };
  const state = page.getByTestId("delivery-state");

  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(state).toContainText(await nextQuestion());
  await expect(state.getByRole("button", { name: "Resume sending" })).toHaveCount(0);

  await state.getByRole("button", { name: "Pause sending" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sending paused" })).toBeVisible();
  await expect(state).toContainText("Paused: no questions are sent until you resume.");
  await expect(state).not.toContainText("Next question:");
  await expect(state.getByRole("button", { name: "Pause sending" })).toHaveCount(0);
  expect(
    (
      await db
        .selectFrom("schedules")
        .select("paused_at")
        .where("storyteller_id", "=", storyteller.id)
        .executeTakeFirstOrThrow()
    ).paused_at,
  ).not.toBeNull();
  await expectNoAxeViolations(page);

  await state.getByRole("button", { name: "Resume sending" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sending resumed" })).toBeVisible();
  await expect(state).toContainText(await nextQuestion());
  await expect(state).not.toContainText("Paused");
  await expect(state.getByRole("button", { name: "Pause sending" })).toBeVisible();
  expect(
    (
      await db
        .selectFrom("schedules")
        .select("paused_at")
        .where("storyteller_id", "=", storyteller.id)
        .executeTakeFirstOrThrow()
    ).paused_at,
  ).toBeNull();
});

test("Check your setup: a test email reaches the outbox; a text needs a valid number", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Asha");
  await page.goto("/dashboard/testpage");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your setup");
  await expect(page.getByLabel(`Email to ${user.email}`)).toBeChecked();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Send a test" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test sent. Check your messages." })).toBeVisible();
  const email = await waitForOutboxMessage(page, user.email);
  await expect(email).toHaveCount(1);
  await expect(email.getByRole("heading", { level: 2 })).toHaveText(`${user.first_name} has a question for you`);
  await expect(email).toContainText("What is your favourite memory from childhood?");
  await expect(email).toContainText("/record/sample?lng=en");

  // Text message with no number, then with one that is not a US or Canadian mobile: refused, nothing queued.
  await page.goto("/dashboard/testpage");
  for (const phone of ["", "12345"]) {
    await page.getByLabel("Text message").check();
    await page.getByLabel("Your mobile number", { exact: true }).fill(phone);
    await page.getByRole("button", { name: "Send a test" }).click();
    await expect(page.getByText("Enter a US or Canadian mobile number")).toBeVisible();
    await expect(page.getByLabel("Your mobile number", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("status").filter({ hasText: "Test sent" })).toHaveCount(0);
  }
  await expectNoAxeViolations(page);
  const testMessages = await db
    .selectFrom("outbox_messages")
    .select(["channel", "to_address"])
    .where("text_body", "like", "%What is your favourite memory from childhood?%")
    .where((eb) => eb.or([eb("to_address", "=", user.email), eb("channel", "=", "sms")]))
    .execute();
  expect(testMessages).toEqual([{ channel: "email", to_address: user.email }]);
});
