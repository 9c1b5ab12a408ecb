import type { Browser, Page } from "@playwright/test";
import type { Db } from "../../db/client";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// Refused form posts (400, without JavaScript) and the removed collaborator's 404 are logged by the browser.
test.use({ allowedConsoleErrors: [/status of 40[04]/] });

const javaScriptOn = () => test.info().project.use.javaScriptEnabled !== false;
const uniqueEmail = (label: string) => `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

/** The newest email to `email` whose text matches `pattern`, from the outbox (what a person would open). */
async function latestEmail(db: Db, email: string, pattern: RegExp) {
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
  }).toPass({ timeout: 10_000 });
  return match!;
}
const invitationLink = async (db: Db, email: string) =>
  (await latestEmail(db, email, /(http\S+\/invitations\/[\w.-]+)/))[1];
const signInCode = async (db: Db, email: string) =>
  (await latestEmail(db, email, /\b(\d{6})\b(?![\s\S]*invitations)/))[1];

async function newBrowser(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: javaScriptOn() });
  return { context, page: await context.newPage() };
}

const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

test("a group: created with a new Storyteller and two invitations, joined, revoked, removed, deleted", async ({
  page,
  context,
  baseURL,
  db,
  browser,
}) => {
  // A long journey through three browsers, with axe on every new screen.
  test.setTimeout(120_000);
  const owner = await signInAsNewUser(db, context, baseURL!, "Meera");
  const first = uniqueEmail("first");
  const second = uniqueEmail("second");

  // Add Group: from the overview's sidebar, its three steps in a dialog with JavaScript, pages without.
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Add Group" }).first().click();
  const steps = javaScriptOn() ? page.getByRole("dialog", { name: "Add a group" }) : page.getByRole("main");
  const onStep = async (step: string) => {
    await expect(steps.locator('[aria-current="step"]')).toHaveText(step);
    if (javaScriptOn()) await expect(page).toHaveURL(/\/dashboard$/);
    else await expect(page).toHaveURL(/\/dashboard\/groups\/new(\?step=\d)?$/);
  };
  await onStep("1. The group");
  await steps.getByLabel("Group name").fill("A");
  await steps.getByLabel("Description").fill("Short");
  await steps.getByRole("button", { name: "Next" }).click();
  await expect(steps.getByText("Too Short!")).toHaveCount(2);
  await expectNoAxeViolations(page);
  await steps.getByLabel("Group name").fill("Dadi's circle");
  await steps.getByLabel("Description").fill("Everyone who misses Dadi");
  await steps.getByRole("button", { name: "Next" }).click();

  await onStep("2. Storyteller");
  await expectNoAxeViolations(page);
  await steps.getByLabel("Nickname").fill("Dadi");
  await steps.getByLabel("First name").fill("Savitri");
  await steps.getByLabel("Their email").fill(uniqueEmail("dadi"));
  await steps.getByRole("button", { name: "Add this Storyteller" }).click();

  await onStep("3. Invite");
  await expectNoAxeViolations(page);
  await steps.getByLabel("Email address 1").fill(first);
  await steps.getByRole("button", { name: "Add another address" }).click();
  await steps.getByLabel("Email address 2").fill(owner.email);
  await steps.getByRole("button", { name: "Create group" }).click();
  await expect(steps.getByText("That is your own address")).toBeVisible();
  await steps.getByLabel("Email address 2").fill(second);
  await steps.getByRole("button", { name: "Create group" }).click();

  await expect(toast(page, "Group created successfully")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dadi's circle");
  await expect(page.getByRole("region", { name: "Pending invitations" })).toContainText(first);
  await expect(page.getByRole("region", { name: "Pending invitations" })).toContainText(second);
  await expectNoAxeViolations(page);
  const groupUrl = page.url();
  const group = await db
    .selectFrom("groups")
    .select(["id", "storyteller_id"])
    .where("owner_id", "=", owner.id)
    .executeTakeFirstOrThrow();

  // The first invitee registers through the emailed link and accepts.
  const invitee = await newBrowser(browser);
  const firstLink = await invitationLink(db, first);
  await invitee.page.goto(firstLink);
  await expect(invitee.page.getByRole("heading", { level: 1 })).toHaveText('Join "Dadi\'s circle"');
  await expectNoAxeViolations(invitee.page);
  await invitee.page.getByRole("link", { name: "Create an account" }).click();
  await invitee.page.getByLabel("First name").fill("Ravi");
  await invitee.page.getByLabel("Last name").fill("Rao");
  await invitee.page.getByLabel("Nickname").fill("ravi");
  await expect(invitee.page.getByLabel("Email")).toHaveValue(first);
  await invitee.page.getByRole("button", { name: "Register" }).click();
  await invitee.page.getByLabel("6-digit code").fill(await signInCode(db, first));
  await invitee.page.getByRole("button", { name: "Sign in" }).click();
  await expect(invitee.page).toHaveURL(firstLink);
  await invitee.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(toast(invitee.page, "You joined Dadi's circle")).toBeVisible();
  await expect(invitee.page).toHaveURL(groupUrl);
  await expect(invitee.page.getByRole("link", { name: "Leave group" })).toBeVisible();
  await expectNoAxeViolations(invitee.page);
  // The link now says it was accepted, and leads its member to the Storyteller.
  await invitee.page.goto(firstLink);
  await expect(invitee.page.getByText("This invitation has already been accepted.")).toBeVisible();
  await expect(invitee.page.getByRole("link", { name: "Open Dadi's page" })).toBeVisible();
  await expectNoAxeViolations(invitee.page);
  await invitee.page.goto("/dashboard");
  await expect(invitee.page.getByTestId("storyteller-card")).toContainText("group Storyteller · Dadi's circle");
  await expect(invitee.page.getByTestId("group-card")).toContainText("Dadi's circle");
  await expectNoAxeViolations(invitee.page);
  const storytellerPage = `/dashboard/recipient/${group.storyteller_id}`;
  expect((await invitee.page.goto(storytellerPage))?.status()).toBe(200);

  // The owner revokes the second invitation; its link says so.
  await page.goto(groupUrl);
  await expect(page.getByRole("region", { name: "Members" })).toContainText(first);
  await page.getByRole("link", { name: `Revoke ${second}` }).click();
  await expect(page.getByRole("region", { name: /Revoke the invitation/ })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(toast(page, "Invitation revoked")).toBeVisible();
  const stranger = await newBrowser(browser);
  await stranger.page.goto(await invitationLink(db, second));
  await expect(stranger.page.getByText("This invitation was withdrawn.")).toBeVisible();
  await expectNoAxeViolations(stranger.page);
  await stranger.context.close();

  // The owner removes the collaborator, who at once can no longer open the Storyteller.
  await page.getByRole("link", { name: "Remove Ravi" }).click();
  await page.getByRole("button", { name: "Remove" }).click();
  await expect(toast(page, "Member removed")).toBeVisible();
  expect((await invitee.page.goto(storytellerPage))?.status()).toBe(404);
  expect((await invitee.page.goto(groupUrl))?.status()).toBe(404);
  await invitee.context.close();

  // The owner deletes the group; the Storyteller stays.
  await page.getByRole("link", { name: "Delete group" }).click();
  await expect(page.getByRole("heading", { name: "Are you sure you want to delete this group?" })).toBeVisible();
  await page.getByRole("button", { name: "Delete group" }).click();
  await expect(toast(page, "Group deleted")).toBeVisible();
  await expect(page.getByTestId("group-card")).toHaveCount(0);
  await expect(page.getByTestId("storyteller-card")).toContainText("Dadi");
});
