import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { firstSendAt } from "../../app/models/schedule";
import { createStoryteller } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

const suffix = () => Math.random().toString(36).slice(2, 10);

/** Three seconds of a spoken-like tone as a WAV file, made with ffmpeg (the "voice" of the caller). */
async function spokenWav() {
  const folder = await mkdtemp(path.join(os.tmpdir(), "heirloom-e2e-phone-"));
  try {
    const file = path.join(folder, "answer.wav");
    await promisify(execFile)(process.env.FFMPEG_PATH ?? "ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=300:duration=3",
      "-ar",
      "8000",
      "-ac",
      "1",
      file,
    ]);
    return await readFile(file);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const heard = (page: Page) => page.getByTestId("phone-heard");
const simulator = (page: Page) => page.getByTestId("phone-simulator");

test("a Storyteller answers by phone through the simulator; the owner is told and hears it @same-without-js", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Meera");
  const timeZone = "America/Chicago";
  const firstPromptDate = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  const storyteller = await createStoryteller(db, {
    ownerId: user.id,
    nickname: "Dadi",
    firstName: "Savitri",
    email: `dadi.${suffix()}@example.com`,
    timeZone,
    firstPromptDate,
    frequency: "weekly",
    nextSendAt: firstSendAt({ firstPromptDate, frequency: "weekly", timeZone }),
    prompts: ["What did your village sound like in the morning?"],
  });

  // Send the question; the email says how to answer by phone, and so does the Sent tab.
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await page.getByTestId("queued-prompt").first().getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The question will be sent shortly" })).toBeVisible();
  let code = "";
  await expect(async () => {
    await page.goto(`/dashboard/recipient/${storyteller.id}?sent=true`);
    const callIn = page.getByTestId("sent-prompt").getByTestId("call-in");
    await expect(callIn).toBeVisible({ timeout: 500 });
    code = (await callIn.innerText()).match(/enter (\d{3}(?: \d{2,4})+)/)![1];
  }).toPass({ timeout: 15_000, intervals: [500, 1000] });
  await expect(page.getByTestId("call-in")).toContainText("Answer by phone: Call +1 555 555 0100 and enter");
  await page.goto("/dev/outbox");
  await expect(
    page
      .getByTestId("outbox-message")
      .filter({ hasText: storyteller.email! })
      .filter({ hasText: `and enter ${code}` }),
  ).toHaveCount(1);

  // Call from a number Heirloom does not know: the code opens the question.
  const phone = simulator(page);
  await phone.getByLabel("Call from").fill(`+1555${String(Math.floor(Math.random() * 9_000_000) + 1_000_000)}`);
  await phone.getByRole("button", { name: "Call", exact: true }).click();
  await expect(heard(page)).toContainText(
    "Please enter the answer code that came with your question, then press the hash key.",
  );
  await expectNoAxeViolations(page);
  await phone.getByLabel("Press keys").fill(code.replaceAll(" ", ""));
  await phone.getByRole("button", { name: "Press", exact: true }).click();
  await expect(heard(page)).toContainText("Hello Savitri, this is Heirloom.");
  await expect(heard(page)).toContainText("Meera asks:");
  await expect(heard(page)).toContainText("What did your village sound like in the morning?");
  await expect(heard(page)).toContainText("After the beep, tell your story.");

  // The spoken answer is a WAV file; then 1 keeps it.
  await phone.getByLabel("Your spoken answer (a WAV file)").setInputFiles({
    name: "answer.wav",
    mimeType: "audio/wav",
    buffer: await spokenWav(),
  });
  await phone.getByRole("button", { name: "Speak" }).click();
  await expect(heard(page)).toHaveText(
    "To keep your answer, press 1. To listen to it, press 2. To record it again, press 3.",
  );
  // 2 plays it back through the same playback route Twilio's <Play> fetches.
  await phone.getByLabel("Press keys").fill("2");
  await phone.getByRole("button", { name: "Press", exact: true }).click();
  const playback = phone.getByTestId("phone-playback");
  await expect(playback).toBeVisible();
  await expect(heard(page)).toContainText("To keep your answer, press 1.");
  await expectNoAxeViolations(page);
  const playbackSrc = await playback.getAttribute("src");
  expect(playbackSrc).toMatch(/^\/phone\/play\/[\w-]+\.[\w-]+\.[\w-]+$/);
  const played = await page.request.get(playbackSrc!);
  expect(played.status()).toBe(200);
  expect(played.headers()["content-type"]).toMatch(/^audio\//);
  expect((await played.body()).subarray(0, 4).toString()).toBe("RIFF");
  expect((await page.request.get(`${playbackSrc!.slice(0, -3)}xyz`)).status()).toBe(404);

  await phone.getByLabel("Press keys").fill("1");
  await phone.getByRole("button", { name: "Press", exact: true }).click();
  await expect(heard(page)).toHaveText("Thank you. Your story is saved, and Meera will hear it soon. Goodbye.");
  // Kept: the playback address stops working.
  expect((await page.request.get(playbackSrc!)).status()).toBe(404);
  await expect(phone.getByRole("status")).toHaveText("The call has ended.");

  // The recording job makes it the answer: the owner is notified and hears it on the Sent tab.
  await expect(async () => {
    await page.goto(`/dashboard/recipient/${storyteller.id}?sent=true`);
    await expect(page.getByTestId("answer")).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000, intervals: [500, 1000] });
  const sent = page.getByTestId("sent-prompt");
  await expect(sent).toContainText("By phone");
  await expect(sent.getByTestId("call-in")).toHaveCount(0);
  const src = await sent.locator("audio").getAttribute("src");
  const audio = await page.request.get(src!);
  expect(audio.status()).toBe(200);
  expect(audio.headers()["content-type"]).toMatch(/^audio\//);
  expect((await audio.body()).byteLength).toBeGreaterThan(10_000);

  // The Timeline says it came by phone too.
  await page.goto("/dashboard/timeline");
  const card = page
    .getByTestId("timeline-answer")
    .filter({ hasText: "What did your village sound like in the morning?" });
  await expect(card.getByTestId("timeline-via-phone")).toContainText("By phone");

  await page.goto("/dashboard/notifications");
  await expect(page.getByTestId("notification-list")).toContainText("Dadi answered a question");
});

/** A time zone where it is now between 09:00 and 19:00, so a call may go at once (08:00–21:00). */
function daytimeZone() {
  const zones = [
    "Pacific/Honolulu",
    "America/Los_Angeles",
    "America/New_York",
    "America/Sao_Paulo",
    "Europe/London",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
  ];
  const hourIn = (timeZone: string) =>
    Number(new Intl.DateTimeFormat("en-US", { hour: "numeric", hourCycle: "h23", timeZone }).format(new Date()));
  return zones.find((zone) => hourIn(zone) >= 9 && hourIn(zone) < 19)!;
}

test("a Phone call Storyteller is called: the outbox shows the call, a pick-up hears the question, 0 stops the calls @same-without-js", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const user = await signInAsNewUser(db, context, baseURL!, "Anil");
  const number = `+1555${String(Math.floor(Math.random() * 9_000_000) + 1_000_000)}`;
  const storyteller = await createStoryteller(db, {
    ownerId: user.id,
    nickname: "Nana",
    firstName: "Gopal",
    deliveryMethod: "call",
    phone: number,
    timeZone: daytimeZone(),
    prompts: ["Which festival did you love most as a boy?"],
  });
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByText("Phone call")).toBeVisible();
  await page.getByTestId("queued-prompt").first().getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The question will be sent shortly" })).toBeVisible();

  // The worker places the call with the simulator; the outbox shows it.
  const placedCall = page
    .getByTestId("outbox-message")
    .filter({ hasText: "Phone call (simulated)" })
    .filter({ hasText: number });
  await expect(async () => {
    await page.goto("/dev/outbox");
    await expect(placedCall).toContainText("Which festival did you love most as a boy?", { timeout: 500 });
    await expect(placedCall).toContainText("delivered to the outbox", { timeout: 500 });
  }).toPass({ timeout: 15_000, intervals: [500, 1000] });

  await placedCall.getByRole("button", { name: "Answer as the Storyteller" }).click();
  await expect(heard(page)).toContainText("Hello Gopal, this is Heirloom.");
  await expect(heard(page)).toContainText("Which festival did you love most as a boy?");
  await expect(heard(page)).toContainText("To stop these calls, press 0.");
  await expectNoAxeViolations(page);
  const phone = simulator(page);
  await phone.getByLabel("Press keys").fill("0");
  await phone.getByRole("button", { name: "Press", exact: true }).click();
  await expect(heard(page)).toHaveText("We will not call you again. You can still call us whenever you like. Goodbye.");

  // The owner sees why nothing more is called.
  await page.goto(`/dashboard/recipient/${storyteller.id}`);
  await expect(page.getByTestId("delivery-state")).toContainText("Gopal asked not to be called any more");
});
