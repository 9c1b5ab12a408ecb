import { SAME_WITHOUT_JS } from "./environment";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const pages = [
  { path: "/", heading: "Hear their stories, in their own voice" },
  { path: "/privacy-policy", heading: "Privacy policy" },
  { path: "/terms-and-conditions", heading: "Terms" },
  { path: "/about-us", heading: "About" },
  { path: "/faqs", heading: "" },
  { path: "/registered-texts", heading: "" },
  { path: "/contact-us", heading: "Contact us" },
];

for (const { path, heading } of pages) {
  // Public pages render on the server alone (no React in the browser: bench:js's 0.1 KB), so what
  // they show is the same with JavaScript off: one run says it for both projects.
  test(`${path} renders real content with no accessibility violations ${SAME_WITHOUT_JS}`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    const h1 = page.locator("h1");
    await expect(h1).toHaveCount(1);
    if (heading) await expect(h1).toContainText(heading);
    await expect(page.locator("main")).not.toContainText(/lorem ipsum/i);
    await expect(page.getByRole("contentinfo")).toContainText(
      "Capturing voice memories and inspiring deep conversations with loved ones.",
    );
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Privacy policy" })).toBeVisible();
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Terms of use" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Register" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}

test.describe("error pages", () => {
  // The browser logs every 4xx/5xx document it loads; here that is the point.
  test.use({ allowedConsoleErrors: [/status of (404|500)/] });

  test(`an unknown path shows the 404 page with status 404 ${SAME_WITHOUT_JS}`, async ({ page }) => {
    const response = await page.goto("/this/does/not/exist");
    expect(response?.status()).toBe(404);
    expect(page.url()).toContain("/this/does/not/exist"); // rendered in place, not redirected
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expectNoAxeViolations(page);
  });

  test(`/500 shows the error page with status 500 ${SAME_WITHOUT_JS}`, async ({ page }) => {
    const response = await page.goto("/500");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Something went wrong");
    await expectNoAxeViolations(page);
  });
});

test(`?lng=hi shows the page in Hindi ${SAME_WITHOUT_JS}`, async ({ page }) => {
  await page.goto("/?lng=hi");
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  await expect(page.getByRole("link", { name: "साइन इन करें" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("अपनों की आवाज़ में यादें");
  await expectNoAxeViolations(page);
});

test("the language switch saves the choice for later pages", async ({ page }) => {
  await page.goto("/faqs");
  await page.getByRole("button", { name: "हिन्दी" }).first().click();
  await expect(page).toHaveURL(/\/faqs$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  await expect(page.getByRole("contentinfo")).toContainText("अपनों की आवाज़ में यादें");
  // The choice holds on the next page, whether reached by a link or typed in.
  await page.getByRole("contentinfo").getByRole("link", { name: "हमारे बारे में" }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("के बारे में");
  await page.goto("/privacy-policy");
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  await page.getByRole("button", { name: "English" }).first().click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy policy");
});

test("theme settings change the page as the server renders it, with a toast", async ({ page }) => {
  await page.goto("/about-us");
  await page.getByText("Display").click();
  // Display offers a text size (no "Right to left": no language here needs it).
  await expect(page.getByLabel("Right to left")).toHaveCount(0);
  const textSize = () => page.locator("h1").evaluate((h1) => parseFloat(getComputedStyle(h1).fontSize));
  const before = await textSize();
  await page.getByLabel("Dark").check();
  await page.getByLabel("Cyan").check();
  await page.getByLabel("Largest").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mode", "dark");
  await expect(page.locator("html")).toHaveAttribute("data-color", "cyan");
  // The text really is larger, as the server draws the page.
  await expect(page.locator("html")).toHaveAttribute("data-text-size", "largest");
  expect(await textSize()).toBeCloseTo(before * 1.5, 0);
  await expect(page.getByRole("status").filter({ hasText: "Settings saved" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("toasts fade away on their own after about 3 seconds", async ({ page }) => {
  await page.goto("/about-us");
  await page.getByText("Display").click();
  await page.getByRole("button", { name: "Save" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Settings saved" });
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 6_000 });
});

test(`the landing page works on a phone-sized screen ${SAME_WITHOUT_JS}`, async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
});

test("the header changes style once scrolled past 100 px", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "a JavaScript enhancement");
  await page.goto("/privacy-policy");
  const header = page.locator("header").first();
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.mouse.wheel(0, 400);
  await expect(header).toHaveAttribute("data-scrolled", "true");
});
