import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// "Check your setup" for a grandson whose grandmother is reached by WhatsApp: a test by WhatsApp to
// his Indian number (the outbox's simulator delivers it here), and her page's Record button shown
// as she sees it, which in the preview records and sends nothing.

test.use({ allowedConsoleErrors: [/status of 400/], viewport: { width: 360, height: 740 } });

test("a WhatsApp test reaches any country's number, and the Storyteller's page shows her Record button", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  await signInAsNewUser(db, context, baseURL!, "Aman");
  // A number of this run's own (the two projects share the database).
  const local = String(10_000 + Math.floor(Math.random() * 90_000));
  await page.goto("/dashboard/testpage");
  await page.getByLabel("WhatsApp", { exact: true }).check();
  const phone = page.getByLabel("Your mobile number", { exact: true });
  await expect(phone).toHaveAccessibleDescription(/WhatsApp reaches a mobile in any country/);
  await phone.fill("12");
  await page.getByRole("button", { name: "Send a test" }).click();
  await expect(page.getByText("Enter your WhatsApp number with its country code")).toBeVisible();
  await expect(page.getByLabel("Your mobile number", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("WhatsApp", { exact: true }).check();
  await page.getByLabel("Your mobile number", { exact: true }).fill(`+91 98765 ${local}`);
  await page.getByRole("button", { name: "Send a test" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test sent. Check your messages." })).toBeVisible();
  await expectNoAxeViolations(page);
  const sent = await db
    .selectFrom("outbox_messages")
    .select(["channel", "text_body"])
    .where("to_address", "=", `+9198765${local}`)
    .execute();
  expect(sent).toHaveLength(1);
  expect(sent[0].channel).toBe("whatsapp");
  expect(sent[0].text_body).toContain("/record/sample?lng=en");
  // The simulator shows it as she would get it.
  await expect(async () => {
    await page.goto("/dev/outbox");
    await expect(page.getByText("What is your favourite memory from childhood?").first()).toBeVisible({
      timeout: 500,
    });
  }).toPass({ timeout: 15_000, intervals: [500, 1000] });

  // Her page, previewed: the Record button she presses, saying it records nothing here.
  await page.goto("/dashboard/testpage");
  await page.getByRole("link", { name: "Open the page your Storytellers see" }).click();
  await expect(page).toHaveURL(/\/record\/sample/);
  const record = page.getByRole("button", { name: "Record", exact: true });
  await expect(record).toBeVisible();
  await expect(record).toHaveAccessibleDescription(/Pressing it here records nothing and sends no answer/);
  await expectNoAxeViolations(page);
  const answersBefore = (await db.selectFrom("answers").select("id").execute()).length;
  await record.click();
  await expect(page).toHaveURL(/\/record\/sample/);
  await expect(record).toBeVisible();
  expect((await db.selectFrom("answers").select("id").execute()).length).toBe(answersBefore);
});
