import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

test("signed-out visitors are sent to log in @same-without-js", async ({ page }) => {
  await page.goto("/dashboard/notifications");
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard%2Fnotifications/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
});

test("the dashboard shell: sidebar, top bar, avatar menu and logout", async ({ page, context, db, baseURL }) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Kavya");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Storytellers" })).toBeVisible();
  const sidebar = page.getByRole("navigation", { name: "Dashboard" }).first();
  for (const name of [
    "Storytellers",
    "My stories",
    "Timeline",
    "Privacy policy",
    "Terms of use",
    "About",
    "Add Storyteller",
    "Add group",
  ]) {
    await expect(sidebar.getByRole("link", { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await expectNoAxeViolations(page);

  await page.getByLabel("Account menu").click();
  await expect(page.getByText(user.email)).toBeVisible();
  await expect(page.getByText("Kavya", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/dashboard/user/account");

  // The bell is a link without JavaScript and opens a popover with it; both reach the full page.
  const bell = page
    .getByRole("link", { name: /Notifications/ })
    .or(page.getByRole("button", { name: /Notifications/ }));
  await bell.click();
  if (test.info().project.use.javaScriptEnabled !== false) await page.getByRole("link", { name: /See all/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  await expect(page.locator("#main").getByText("You have no notifications yet.")).toBeVisible();

  const cookiesBefore = await context.cookies();
  await page.getByLabel("Account menu").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  const sessions = await db.selectFrom("sessions").select("id_hash").where("user_id", "=", user.id).execute();
  expect(sessions).toEqual([]);

  // The old cookie no longer opens the dashboard.
  await context.addCookies(cookiesBefore);
  const again = await page.request.get("/dashboard", { maxRedirects: 0 });
  expect(again.status()).toBe(302);
  expect(again.headers().location).toMatch(/^\/auth\/login\?redirectTo=/);
});

test("the dashboard collapses its sidebar into a menu on a phone", async ({ page, context, db, baseURL }) => {
  await signInAsNewUser(db, context, baseURL!, "Ravi");
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/dashboard");
  await page.getByText("Menu", { exact: true }).click();
  await expect(page.getByRole("link", { name: /^Timeline/ }).last()).toBeVisible();
  await expectNoAxeViolations(page);
});

test("My Stories and Check your setup open from the sidebar", async ({ page, context, db, baseURL }) => {
  await signInAsNewUser(db, context, baseURL!, "Meera");
  await page.goto("/dashboard");
  const sidebar = page.getByRole("navigation", { name: "Dashboard" }).first();
  await sidebar.getByRole("link", { name: /^My stories/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My stories" })).toBeVisible();
  await expect(
    page.getByText("No stories yet. Record one above, or answer a question someone sent you."),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto("/dashboard");
  await sidebar.getByRole("link", { name: "Check your setup" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check your setup" })).toBeVisible();
});
