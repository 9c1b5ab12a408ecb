import type { Page } from "@playwright/test";
import type { Db } from "../../db/client";
import { createUser } from "../factories";
import { expect, expectNoAxeViolations, test } from "./fixtures";

// A wrong or stale code answers the form with 400 in the no-JavaScript flow, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 400/] });

const uniqueEmail = (label: string) => `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

/** The newest sign-in email to `email`, from the outbox (what a person would open). */
async function latestSignInEmail(db: Db, email: string) {
  let text = "";
  await expect(async () => {
    const row = await db
      .selectFrom("outbox_messages")
      .select("text_body")
      .where("to_address", "=", email)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    text = row?.text_body ?? "";
    expect(text).toMatch(/\d{6}/);
  }).toPass({ timeout: 10_000 });
  return { code: /(\d{6})/.exec(text)![1], link: /(\S+\/auth\/magic-link\?code=\d{6})/.exec(text)![1] };
}

async function requestCode(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your email to sign in");
}

async function createAccount(db: Db, email: string, firstName = "Leela") {
  await createUser(db, { email, first_name: firstName, nickname: firstName.toLowerCase() });
}

test("register, then sign in with the code from the email", async ({ page, db }) => {
  const email = uniqueEmail("register");
  await page.goto("/auth/register");
  await expectNoAxeViolations(page);
  await page.getByLabel("First name").fill("Anita");
  await page.getByLabel("Last name").fill("Desai");
  await page.getByLabel("Nickname").fill("Ani");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your email to sign in");
  await expect(page.getByText("Registration successful, please check your email.")).toBeVisible();
  await expect(page.getByText(`We sent a 6-digit code and a sign-in link to ${email}`)).toBeVisible();
  await expectNoAxeViolations(page);

  const { code } = await latestSignInEmail(db, email);
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByLabel("Account menu").click();
  await expect(page.getByText(email)).toBeVisible();
});

test("log in with the emailed link in the same browser", async ({ page, db }) => {
  const email = uniqueEmail("link");
  await createAccount(db, email);
  await page.goto("/auth/login");
  await expectNoAxeViolations(page);
  await requestCode(page, email);
  const { link } = await latestSignInEmail(db, email);
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("log in with the code on a second device; the code then no longer works", async ({ page, db, browser }) => {
  const email = uniqueEmail("second");
  await createAccount(db, email);
  await page.goto("/auth/login");
  await requestCode(page, email);
  const { code } = await latestSignInEmail(db, email);

  const laptop = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled !== false });
  const laptopPage = await laptop.newPage();
  await laptopPage.goto("/auth/verify");
  await laptopPage.getByLabel("Email").fill(email);
  await laptopPage.getByLabel("6-digit code").fill(code);
  await laptopPage.getByRole("button", { name: "Sign in" }).click();
  await expect(laptopPage).toHaveURL(/\/dashboard$/);
  await laptop.close();

  // The first browser tries the same code: it was used.
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("Sign-in failed");
  await expect(page).toHaveURL(/\/auth\/verify$/);
});

test("an expired code fails", async ({ page, db }) => {
  const email = uniqueEmail("expired");
  await createAccount(db, email);
  await page.goto("/auth/login");
  await requestCode(page, email);
  const { code } = await latestSignInEmail(db, email);
  // Sixteen minutes later, as far as the sign-in is concerned.
  await db
    .updateTable("auth_flows")
    .set({ expires_at: new Date(Date.now() - 60_000) })
    .where("email", "=", email)
    .execute();
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("the code has expired or was already used");
});

test("the page asked for before signing in is shown after, once; other sites never", async ({ page, db }) => {
  const email = uniqueEmail("redirect");
  await createAccount(db, email);
  await page.goto("/dashboard/notifications");
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard%2Fnotifications$/);
  await requestCode(page, email);
  await page.getByLabel("6-digit code").fill((await latestSignInEmail(db, email)).code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/notifications$/);

  await page.getByLabel("Account menu").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/auth/login");
  await requestCode(page, email);
  await page.getByLabel("6-digit code").fill((await latestSignInEmail(db, email)).code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/); // not notifications again

  await page.getByLabel("Account menu").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  // Signed out before going on: a navigation started at once would cancel the logout's post.
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/auth/login?redirectTo=%2F%2Fevil.example%2Fsteal");
  await requestCode(page, email);
  await page.getByLabel("6-digit code").fill((await latestSignInEmail(db, email)).code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/localhost:\d+\/dashboard$/);
});

test("signed-in visitors skip the login and register pages", async ({ page, db }) => {
  const email = uniqueEmail("skip");
  await createAccount(db, email);
  await page.goto("/auth/login");
  await requestCode(page, email);
  await page.goto((await latestSignInEmail(db, email)).link);
  await page.goto("/auth/login");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/auth/register");
  await expect(page).toHaveURL(/\/dashboard$/);
});
