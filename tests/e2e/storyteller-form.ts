import type { Page } from "@playwright/test";
import { test } from "./fixtures";

/**
 * Chooses how questions reach a Storyteller. The form shows only the chosen method's fields: with
 * JavaScript at once, without it after "Show what this choice needs" posts the form back.
 */
export async function chooseDeliveryMethod(page: Page, label: "Email" | "Text message" | "Phone call" | "WhatsApp") {
  await page.getByLabel(label, { exact: true }).check();
  if (test.info().project.use.javaScriptEnabled === false)
    await page.getByRole("button", { name: "Show what this choice needs" }).click();
}
