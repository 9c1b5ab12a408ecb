import type { Browser, Locator, Page } from "@playwright/test";
import type { Db } from "../../db/client";
import { expect, test } from "./fixtures";

// The steps the group journeys share (groups.spec.ts, collaborator.spec.ts, family-journey.spec.ts):
// Add Group's three steps, the emails a person would open, registering through an invitation link,
// and a collaborator's Add New Prompt.

export const javaScriptOn = () => test.info().project.use.javaScriptEnabled !== false;
export const uniqueEmail = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

/** The toast (role=status) with this text. */
export const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

/** The newest email to `email` whose text matches `pattern`, from the outbox (what a person would open). */
export async function latestEmail(db: Db, email: string, pattern: RegExp) {
  let match: RegExpExecArray | null = null;
  await expect(async () => {
    const rows = await db
      .selectFrom("outbox_messages")
      .select("text_body")
      .where("to_address", "=", email)
      .orderBy("created_at", "desc")
      .execute();
    match = rows.map((r) => pattern.exec(r.text_body ?? "")).find(Boolean) ?? null;
    expect(match).not.toBeNull();
  }).toPass({ timeout: 15_000 });
  return match!;
}
export const invitationLink = async (db: Db, email: string) =>
  (await latestEmail(db, email, /(http\S+\/invitations\/[\w.-]+)/))[1];
export const signInCode = async (db: Db, email: string) =>
  (await latestEmail(db, email, /\b(\d{6})\b(?![\s\S]*invitations)/))[1];
/** The record link of the question emailed to a Storyteller (Send now, or the schedule). */
export const recordLink = async (db: Db, email: string) =>
  (await latestEmail(db, email, /(https?:\/\/\S+\/record\/\S+)/))[1];

/** Another person: a browser context of their own, with JavaScript as the project has it. */
export async function newBrowser(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: javaScriptOn() });
  return { context, page: await context.newPage() };
}

/**
 * Opens Add Group from the overview's sidebar: its three steps in a dialog with JavaScript, pages
 * without. `steps` holds the forms; `onStep` checks which step shows (and the address it shows at).
 */
export async function openAddGroup(page: Page) {
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Add group" }).first().click();
  const steps: Locator = javaScriptOn() ? page.getByRole("dialog", { name: "Add a group" }) : page.getByRole("main");
  const onStep = async (step: string) => {
    await expect(steps.locator('[aria-current="step"]')).toHaveText(step);
    if (javaScriptOn()) await expect(page).toHaveURL(/\/dashboard$/);
    else await expect(page).toHaveURL(/\/dashboard\/groups\/new(\?step=\d)?$/);
  };
  return { steps, onStep };
}

/** Step 3 of Add Group: one address per slot, adding slots as needed. */
export async function fillInvitations(steps: Locator, emails: string[]) {
  for (const [index, email] of emails.entries()) {
    if (index > 0) await steps.getByRole("button", { name: "Add another address" }).click();
    await steps.getByLabel(`Email address ${index + 1}`).fill(email);
  }
}

/**
 * A new person opens their invitation link, registers through it (the email is the invited one),
 * signs in with the emailed code and is brought back to the link. `check` runs on each new screen
 * (axe). Ends on the invitation page, signed in, before Accept.
 */
export async function registerThroughInvitation(
  page: Page,
  db: Db,
  invitation: { link: string; email: string; groupName: string },
  person: { firstName: string; lastName: string; nickname: string },
  check: (page: Page) => Promise<void> = async () => {},
) {
  await page.goto(invitation.link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Join "${invitation.groupName}"`);
  await check(page);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("First name").fill(person.firstName);
  await page.getByLabel("Last name").fill(person.lastName);
  await page.getByLabel("Nickname").fill(person.nickname);
  await expect(page.getByLabel("Email")).toHaveValue(invitation.email);
  await page.getByRole("button", { name: "Register" }).click();
  await page.getByLabel("6-digit code").fill(await signInCode(db, invitation.email));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(invitation.link);
}

/**
 * Add New Prompt on a Storyteller's page, with one question of the user's own: a dialog with
 * JavaScript, its own page without. `check` runs on the form (axe). Ends back on the Storyteller page.
 */
export async function addOwnQuestion(
  page: Page,
  question: string,
  check: (page: Page) => Promise<void> = async () => {},
) {
  await page.getByRole("link", { name: "Add questions" }).click();
  const form = javaScriptOn() ? page.getByRole("dialog", { name: "Add questions" }) : page.locator("main");
  await form.getByLabel("Your own questions").fill(question);
  await check(page);
  await form.getByRole("button", { name: "Add to the queue" }).click();
  await expect(toast(page, "Questions added successfully")).toBeVisible();
}

/** In a page with JavaScript: the audio element really plays (muted, so no gesture is needed). */
export async function expectAudioPlays(audio: Locator) {
  const played = await audio.evaluate(async (element: HTMLAudioElement) => {
    element.muted = true;
    await element.play();
    await new Promise<void>((resolve) => {
      const check = () => (element.currentTime > 0.2 ? resolve() : setTimeout(check, 50));
      check();
    });
    element.pause();
    return element.currentTime;
  });
  expect(played).toBeGreaterThan(0.2);
}
