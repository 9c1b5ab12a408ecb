import { expect, expectNoAxeViolations, test } from "./fixtures";

// Without JavaScript the server answers a form with mistakes with 400, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 400/] });

test("the contact form explains mistakes, then sends the message to the team's outbox", async ({ page }, testInfo) => {
  await page.goto("/contact-us");
  await page.getByLabel("Your email").fill("not-an-email");
  await page.getByLabel("Your email").press("Enter");
  await expect(page.getByText("Email must be a valid email address")).toBeVisible();
  await expect(page.getByText("This field is required").first()).toBeVisible();
  await expectNoAxeViolations(page);

  const marker = `${testInfo.project.name}-${Date.now()}`;
  await page.getByLabel("Your name").fill("Meera");
  await page.getByLabel("Your email").fill("meera@example.com");
  await page.getByLabel("Message").fill(`Thank you for Heirloom! (${marker})`);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Thank you! Your message has been sent." })).toBeVisible();

  await expect(async () => {
    await page.goto("/dev/outbox");
    const message = page.getByTestId("outbox-message").filter({ hasText: marker });
    await expect(message).toContainText("contact@localhost");
    await expect(message).toContainText("delivered to the outbox");
  }).toPass({ timeout: 15_000 });
});
