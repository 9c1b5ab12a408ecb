import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { DateTime } from "luxon";
import type { Db } from "../../db/client";
import { makeVoiceNote } from "../audio-fixtures";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import { chooseDeliveryMethod } from "./storyteller-form";

// Steps with mistakes are answered with 400 when JavaScript is off, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 400/] });

/** A zone where it is daytime now, so "Send now" sends at once (texts and WhatsApp wait for 08:00–21:00). */
const daytimeZone = () =>
  ["Asia/Kolkata", "Europe/London", "America/New_York", "America/Los_Angeles", "Pacific/Auckland"].find((zone) => {
    const hour = DateTime.now().setZone(zone).hour;
    return hour >= 9 && hour < 19;
  })!;

async function voiceNote(kind: "ogg" | "m4a") {
  const folder = await mkdtemp(path.join(os.tmpdir(), "heirloom-e2e-whatsapp-"));
  try {
    const file = path.join(folder, `note.${kind}`);
    await makeVoiceNote(file, kind, 2);
    return await readFile(file);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function addDadi(page: Page, phone: string, timeZone: string) {
  await page.goto("/dashboard/onboarding");
  await page.getByLabel("Nickname").fill("Dadi");
  await page.getByLabel("First name").fill("Savitri");
  await chooseDeliveryMethod(page, "WhatsApp");
  await page.getByLabel("Their phone number").fill(phone);
  await page.getByRole("combobox", { name: "Their language" }).selectOption("hi");
  await page.getByRole("combobox", { name: "Their time zone" }).selectOption(timeZone);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Please confirm that they agreed to get questions on WhatsApp")).toBeVisible();
  await page.getByLabel(/They agreed to get questions from Heirloom on WhatsApp/).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=2/);
  await page.getByLabel("Your own questions").fill("What was your wedding day like?\nWho taught you to cook?");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Date of the first question").fill(DateTime.now().plus({ days: 30 }).toISODate()!);
  await page.getByRole("button", { name: "Add Storyteller" }).click();
  await expect(page.getByRole("status").filter({ hasText: "New Storyteller added" })).toBeVisible();
}

test("Dadi in India on WhatsApp: Send now, she replies with voice notes (OGG, M4A) in the simulator, the family hears them", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Asha");
  const phone = `+9198${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
  await addDadi(page, phone, daytimeZone());
  const storyteller = await db
    .selectFrom("storytellers")
    .select(["id", "delivery_method", "phone_e164", "sms_consent"])
    .where("owner_id", "=", user.id)
    .executeTakeFirstOrThrow();
  expect(storyteller).toMatchObject({ delivery_method: "whatsapp", phone_e164: phone, sms_consent: "granted" });

  // Send now, for each question (the schedule's first date is a month away, so only these send). Each
  // by its words: until its job has run, the first question is still first in the queue.
  for (const question of ["What was your wedding day like?", "Who taught you to cook?"]) {
    await page.goto(`/dashboard/recipient/${storyteller.id}`);
    await page
      .getByTestId("queued-prompt")
      .filter({ hasText: question })
      .getByRole("button", { name: "Send now" })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "The question will be sent shortly" })).toBeVisible();
  }

  for (const [index, kind] of (["ogg", "m4a"] as const).entries()) {
    // The question reaches the outbox as WhatsApp, in Hindi; she replies to it with a voice note.
    const question = page
      .getByTestId("outbox-message")
      .filter({ hasText: phone })
      .filter({ hasText: "नमस्ते Savitri" })
      .filter({ hasText: index === 0 ? "What was your wedding day like?" : "Who taught you to cook?" });
    await expect(async () => {
      await page.goto("/dev/outbox");
      await expect(question.getByTestId("whatsapp-reply")).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 20_000, intervals: [500, 1000] });
    if (index === 0) await expectNoAxeViolations(page);
    const reply = question.getByTestId("whatsapp-reply");
    await reply.getByLabel("Voice note (audio file)").setInputFiles({
      name: kind === "ogg" ? "PTT-20260301-WA0001.opus" : "Recording.m4a",
      mimeType: kind === "ogg" ? "audio/ogg" : "audio/mp4",
      buffer: await voiceNote(kind),
    });
    await reply.getByRole("button", { name: "Send on WhatsApp" }).click();
    await expect(page).toHaveURL(/\/dev\/outbox$/);
    // Her note is in before the page is loaded again: leaving while it still posts cancelled it (the
    // URL was already /dev/outbox, so the check above passes at once with JavaScript).
    await expect(
      page.getByTestId("outbox-message").filter({ hasText: phone }).filter({ hasText: "(वॉइस नोट)" }),
    ).toHaveCount(index + 1, { timeout: 15_000 });

    // The job answers her in Hindi: the outbox shows the thanks.
    await expect(async () => {
      await page.goto("/dev/outbox");
      await expect(
        page
          .getByTestId("outbox-message")
          .filter({ hasText: phone })
          .filter({ hasText: "धन्यवाद! आपका जवाब सहेज लिया गया है, और Asha इसे जल्द ही सुनेंगे।" }),
      ).toHaveCount(index + 1, { timeout: 500 });
    }).toPass({ timeout: 30_000, intervals: [500, 1000] });
  }

  // The family hears both: each answer's audio is served to the owner.
  const answers = await db
    .selectFrom("answers")
    .innerJoin("prompts", "prompts.id", "answers.prompt_id")
    .select(["answers.id", "answers.content_type", "prompts.text"])
    .where("answers.storyteller_id", "=", storyteller.id)
    .orderBy("prompts.text")
    .execute();
  expect(answers.map((a) => [a.text, a.content_type])).toEqual([
    ["What was your wedding day like?", "audio/ogg"],
    ["Who taught you to cook?", "audio/mp4"],
  ]);
  for (const answer of answers) {
    const audio = await page.request.get(`/media/answer/${answer.id}`);
    expect(audio.status()).toBe(200);
    expect(audio.headers()["content-type"]).toMatch(/^audio\//);
  }
  await page.goto(`/dashboard/recipient/${storyteller.id}?sent=true`);
  await expect(page.getByText("What was your wedding day like?")).toBeVisible();
});

/** Dadi (added by the family, her first question a month away) writes first, from the simulator. */
async function dadiWritesFirst(page: Page, context: BrowserContext, db: Db, baseURL: string) {
  await signInAsNewUser(db, context, baseURL, "Asha");
  const phone = `+9198${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
  await addDadi(page, phone, daytimeZone());
  await page.goto("/dev/outbox");
  const simulator = page.getByTestId("whatsapp-simulator");
  await simulator.getByLabel("Her WhatsApp number").fill(phone);
  return { phone, simulator };
}

/** Waits until the outbox shows what we sent her (the voice-note job replies a moment later). */
async function expectReply(page: Page, phone: string, text: string) {
  await expect(async () => {
    await page.goto("/dev/outbox");
    await expect(page.getByTestId("outbox-message").filter({ hasText: phone }).filter({ hasText: text })).toHaveCount(
      1,
      { timeout: 500 },
    );
  }).toPass({ timeout: 30_000, intervals: [500, 1000] });
}

test("her WhatsApp text reaches the family's bell", async ({ page, context, db, baseURL }) => {
  test.setTimeout(120_000);
  const { phone, simulator } = await dadiWritesFirst(page, context, db, baseURL!);
  await simulator.getByLabel("Text", { exact: true }).fill("नमस्ते बेटा, खाना खाया?");
  await simulator.getByRole("button", { name: "Send on WhatsApp" }).click();
  await expect(
    page.getByTestId("outbox-message").filter({ hasText: phone }).filter({ hasText: "नमस्ते बेटा, खाना खाया?" }),
  ).toHaveCount(1, {
    timeout: 15_000,
  });
  // She is told it reached Asha, not to send a voice note.
  await expectReply(page, phone, "धन्यवाद! आपका संदेश Asha तक पहुँच जाएगा।");

  await page.goto("/dashboard");
  await expect(
    page.getByRole(test.info().project.name === "no-js" ? "link" : "button", { name: "Notifications: 1 unread" }),
  ).toBeVisible();
  await page.goto("/dashboard/notifications");
  const list = page.getByTestId("notification-list");
  await expect(list.getByRole("link", { name: /Dadi sent you a message/ })).toHaveAttribute(
    "href",
    /^\/dashboard\/recipient\/[0-9a-f-]{36}$/,
  );
  await expect(list.getByText("“नमस्ते बेटा, खाना खाया?”")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a voice note with no open question becomes her own story", async ({ page, context, db, baseURL }) => {
  test.setTimeout(120_000);
  const { phone, simulator } = await dadiWritesFirst(page, context, db, baseURL!);
  await simulator.getByLabel("Voice note (audio file)").setInputFiles({
    name: "PTT-20260301-WA0002.opus",
    mimeType: "audio/ogg",
    buffer: await voiceNote("ogg"),
  });
  await simulator.getByRole("button", { name: "Send on WhatsApp" }).click();
  await expect(
    page.getByTestId("outbox-message").filter({ hasText: phone }).filter({ hasText: "(वॉइस नोट)" }),
  ).toHaveCount(1, { timeout: 15_000 });
  await expectReply(page, phone, "धन्यवाद! आपकी कहानी सहेज ली गई है, और Asha इसे जल्द ही सुनेंगे।");

  await page.goto("/dashboard/notifications");
  const story = page.getByTestId("notification-list").getByRole("link", { name: /Dadi sent a story/ });
  await expect(story).toHaveAttribute("href", /\/dashboard\/recipient\/[0-9a-f-]{36}\?sent=true#prompt-[0-9a-f-]{36}$/);
  await story.click();
  await expect(page.getByText("Dadi sent a story").first()).toBeVisible();
  // Kept like any answer: its recording is served to the family; the questions she was to be asked still wait.
  const answer = await db
    .selectFrom("answers")
    .innerJoin("prompts", "prompts.id", "answers.prompt_id")
    .innerJoin("storytellers", "storytellers.id", "prompts.storyteller_id")
    .select(["answers.id", "prompts.text", "prompts.is_own_story"])
    .where("storytellers.phone_e164", "=", phone)
    .executeTakeFirstOrThrow();
  expect(answer).toMatchObject({ text: "Dadi sent a story", is_own_story: true });
  const audio = await page.request.get(`/media/answer/${answer.id}`);
  expect(audio.status()).toBe(200);
  await expectNoAxeViolations(page);
});
