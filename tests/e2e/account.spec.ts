import { truncate, writeFile } from "node:fs/promises";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// Forms with mistakes are answered with 400 when JavaScript is off, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 400/] });

test("account settings: update the profile, preferences, and see it everywhere", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Sunita");
  await page.goto("/dashboard/user");
  await expect(page).toHaveURL(/\/dashboard\/user\/profile$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My profile");
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Account settings" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account settings");
  await expectNoAxeViolations(page);
  await page.getByLabel("First name").fill("Sunaina");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "User updated" })).toBeVisible();
  await page.getByLabel("Account menu").click();
  await expect(page.getByText("Sunaina", { exact: true })).toBeVisible();
  await page.getByLabel("Account menu").click();

  await page.getByLabel("Application").check();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Preferences updated" })).toBeVisible();
  const row = await db
    .selectFrom("users")
    .select(["first_name", "notify_application"])
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ first_name: "Sunaina", notify_application: true });
});

test("choosing Hindi in the account switches the whole interface", async ({ page, context, db, baseURL }) => {
  await signInAsNewUser(db, context, baseURL!, "Gopal");
  await page.goto("/dashboard/user/account");
  await page.getByRole("combobox", { name: "Language" }).selectOption("hi");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("खाते की सेटिंग्स");
  await expectNoAxeViolations(page);
});

test("a picture that is really a web page is refused with a clear message", async ({ page, context, db, baseURL }) => {
  await signInAsNewUser(db, context, baseURL!, "Meena");
  await page.goto("/dashboard/user/account");
  await page.getByLabel("Profile photo").setInputFiles({
    name: "photo.png",
    mimeType: "image/png",
    buffer: Buffer.from("<!doctype html><p>not a picture</p>"),
  });
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(
    page.getByText("That file is not a JPEG, PNG, GIF or WebP picture. Please choose a photo."),
  ).toBeVisible();
});

test("a 20 MB photo is refused as soon as it is chosen, before anything is sent", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.skip(test.info().project.use.javaScriptEnabled === false, "the browser's own check needs JavaScript");
  await signInAsNewUser(db, context, baseURL!, "Ravi");
  await page.goto("/dashboard/user/account");
  // A file on disk: a 20 MB buffer is too slow to hand to the browser.
  const big = test.info().outputPath("big.png");
  await writeFile(big, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  await truncate(big, 20 * 1024 * 1024);
  const photo = page.getByLabel("Profile photo");
  await photo.setInputFiles(big);
  // Said before anything is sent, and the photo is not kept to be sent with the rest.
  await expect(page.getByText("The photo is larger than 5 MB. Please choose a smaller one.")).toBeVisible();
  await expect(photo).toHaveValue("");
});

test("invite someone, and delete my account", async ({ page, context, db, baseURL }) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Farah");
  await page.goto("/dashboard/user/new");
  await expectNoAxeViolations(page);
  const invited = `friend.${Date.now()}@example.com`;
  await page.getByLabel("Their email").fill(invited);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${invited}` })).toBeVisible();

  await page.goto("/dashboard/user/account");
  await page.getByLabel("I understand that this cannot be undone").check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("status").filter({ hasText: "Your account was deleted" })).toBeVisible();
  expect(await db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
});
