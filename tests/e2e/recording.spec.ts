import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { Db } from "../../db/client";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import {
  answersFor,
  collectScriptRequests,
  newOwner,
  notificationTypes,
  savedRecording,
  sentQuestion,
  sentQuestions,
  storedFiles,
  tamper,
  wav,
} from "./recording-helpers";

// The Storyteller's record page (app/routes/record.$token.tsx, app/recorder/recorder.ts): recording
// with Chromium's fake microphone (playwright.config.ts), the upload surviving a cut connection and
// a closed tab, the 5:00 cap, the plain form without JavaScript, and the links and files it refuses.

// Bad links are 404s and bad files 400/422s; the browser logs each.
test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

const fixtureWebm = path.resolve("tests/fixtures/recording-3s.webm");
const fixtureWebmBytes = readFileSync(fixtureWebm).length;

const RECORDING = "Recording. Press Stop when you have finished.";
const RECORDED = "Recorded, not sent yet. Listen to it if you like, then press Send this answer.";

function recordPage(page: Page) {
  const recorder = page.locator("#recorder");
  return {
    question: page.getByRole("heading", { level: 1 }),
    recorder,
    recordButton: recorder.getByRole("button", { name: "Record", exact: true }),
    stopButton: recorder.getByRole("button", { name: "Stop", exact: true }),
    timer: recorder.getByText(/^\d:\d\d left$/),
    status: recorder.getByRole("status"),
    reviewPlayer: recorder.locator("audio"),
    submitButton: recorder.getByRole("button", { name: "Send this answer", exact: true }),
    rerecordButton: recorder.getByRole("button", { name: "Record again", exact: true }),
    progress: recorder.getByRole("progressbar"),
    failure: recorder.getByRole("alert"),
    // The announced result's heading ("Sent. Thank you." / "Your answer"), inside role=status.
    result: page.getByRole("main").getByRole("status").getByRole("heading", { level: 2 }),
    answerPlayer: page.locator("main > section audio"),
    fileInput: page.getByLabel("Choose a recording, or record one with your phone"),
  };
}

/** Two sent questions of one Storyteller, both open: the record page of each lists the other. */
async function twoOpenQuestions(db: Db, ownerId: string) {
  const [first, second] = await sentQuestions(db, ownerId, [
    `What was your first home like? (${Math.random()})`,
    `Who taught you to cook? (${Math.random()})`,
  ]);
  return { first, second };
}

/** Records with the fake microphone until the countdown shows at least `seconds` gone, then stops. */
async function recordAndStop(page: Page, seconds: number) {
  const ui = recordPage(page);
  await expect(ui.timer).toHaveText("5:00 left");
  await expect(ui.status).toHaveText("Press Record, then say your answer.");
  await ui.recordButton.click();
  await expect(ui.stopButton).toHaveAttribute("aria-pressed", "true");
  await expect(ui.status).toHaveText(RECORDING);
  // The countdown shows at least `seconds` gone ("4:57 left" or lower for 3).
  await expect
    .poll(
      async () => {
        const [minutes, secs] = ((await ui.timer.textContent()) ?? "").split(/[: ]/).map(Number);
        return minutes * 60 + secs;
      },
      { timeout: (seconds + 5) * 1000 },
    )
    .toBeLessThanOrEqual(300 - seconds);
  await ui.stopButton.click();
  // Recorded: Send this answer is the one primary action; Record and the countdown are gone.
  await expect(ui.status).toHaveText(RECORDED);
  await expect(ui.recordButton).toBeHidden();
  await expect(ui.stopButton).toBeHidden();
  await expect(ui.timer).toBeHidden();
  await expect(ui.rerecordButton).toBeVisible();
  await expect(ui.recorder.getByText("Listen to your recording")).toBeVisible();
  await expect(ui.reviewPlayer).toHaveAttribute("src", /^blob:/);
  await expect(ui.submitButton).toBeVisible();
}

test.describe("recording in the browser", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "the recorder is the page's script");

  test("record with the microphone, listen back, submit: the page confirms, the answer is stored, the owner is told", async ({
    page,
    browser,
    db,
    baseURL,
  }) => {
    const ownerContext = await browser.newContext();
    try {
      const owner = await signInAsNewUser(db, ownerContext, baseURL!, "Asha");
      const question = await sentQuestion(db, owner.id);
      const ui = recordPage(page);
      const scripts = collectScriptRequests(page);

      expect((await page.goto(question.url))?.status()).toBe(200);
      await expect(ui.question).toHaveText(question.text);
      await expect(page.getByText("From Asha")).toBeVisible();
      await expect(ui.recordButton).toBeVisible();
      // The file form is folded behind "Or upload a recording".
      await expect(page.getByRole("button", { name: "Or upload a recording" })).toBeVisible();
      await expect(ui.fileInput).toBeHidden();
      await expectNoAxeViolations(page);
      // The script said the question was opened: the asker hears of it.
      await expect.poll(() => notificationTypes(db, owner.id, question.promptId)).toEqual(["listened"]);

      await recordAndStop(page, 3);
      expect(await answersFor(db, question.promptId)).toEqual([]);

      // Hold the upload's bytes for a moment, so the progress can be seen.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/uploads/**", async (route) => {
        if (route.request().method() === "PATCH") await held;
        await route.continue();
      });
      await ui.submitButton.click();
      await expect(ui.progress).toBeVisible();
      await expect(ui.status).toHaveText(/^Sending… \d+%$/);
      await expect(ui.recordButton).toBeHidden();
      await expect(ui.submitButton).toBeHidden();
      release();

      await expect(page).toHaveURL(/[?&]submitted=1/);
      await expect(ui.result).toHaveText("Sent. Thank you.");
      await expect(page.getByText("Thank you! Asha will love hearing this.")).toBeVisible();
      await expect(ui.answerPlayer).toHaveAttribute("src", `/record/${question.token}/audio`);
      await expect(ui.recorder).toHaveCount(0);

      const answers = await answersFor(db, question.promptId);
      expect(answers).toHaveLength(1);
      expect(answers[0]).toMatchObject({ content_type: "audio/webm", is_private: false });
      expect(answers[0].upload_id).not.toBeNull(); // it came through tus
      expect(answers[0].duration_ms).toBeGreaterThanOrEqual(2500);
      expect(answers[0].duration_ms).toBeLessThan(10_000);
      expect(await storedFiles(question.promptId)).toEqual([path.basename(answers[0].storage_key!)]);
      // The phone's copy goes only once the server confirmed.
      expect(await savedRecording(page, question.token)).toBeNull();
      // The answered page loads no script at all; the first load loaded only the recorder.
      expect(scripts.map((url) => new URL(url).pathname)).toEqual([
        expect.stringMatching(/^\/assets\/recorder-[\w-]+\.js$/),
      ]);

      // The Storyteller can listen, with seeking (a range request).
      const ranged = await page.request.get(`/record/${question.token}/audio`, { headers: { Range: "bytes=0-99" } });
      expect(ranged.status()).toBe(206);
      expect((await ranged.body()).length).toBe(100);

      // The owner is told.
      await expect.poll(() => notificationTypes(db, owner.id, question.promptId)).toEqual(["listened", "uploaded"]);
      const ownerPage = await ownerContext.newPage();
      await ownerPage.goto("/dashboard/notifications");
      await expect(
        ownerPage.getByTestId("notification-list").getByRole("link", { name: /Nana answered a question/ }),
      ).toBeVisible();
    } finally {
      await ownerContext.close();
    }
  });

  test.describe("a bad connection", () => {
    // Aborted requests are logged by the browser as failed loads.
    test.use({ allowedConsoleErrors: [/status of 4\d\d|net::ERR_/] });

    test("the connection drops twice mid-upload: tus resumes from the server's last byte, one answer", async ({
      page,
      db,
    }) => {
      const owner = await newOwner(db);
      const question = await sentQuestion(db, owner.id);
      const ui = recordPage(page);
      await page.goto(question.url);
      await recordAndStop(page, 2);

      const seen: { method: string; offset: string | null }[] = [];
      let wholeFile = 0;
      let cuts = 0;
      await page.route("**/uploads/**", async (route) => {
        const request = route.request();
        seen.push({ method: request.method(), offset: await request.headerValue("upload-offset") });
        if (request.method() !== "PATCH" || cuts >= 2) return route.continue();
        cuts += 1;
        if (cuts === 1) {
          // Half the bytes reach the server, then the line drops before its answer comes back.
          const body = request.postDataBuffer()!;
          wholeFile = body.length;
          const headers = { ...request.headers() };
          delete headers["content-length"];
          const partial = await route.fetch({ headers, postData: body.subarray(0, Math.floor(body.length / 2)) });
          expect(partial.status()).toBe(204);
          return route.abort("connectionreset");
        }
        return route.abort("internetdisconnected");
      });

      await ui.submitButton.click();
      await expect(page).toHaveURL(/[?&]submitted=1/, { timeout: 20_000 });
      await expect(ui.result).toHaveText("Sent. Thank you.");

      const half = String(Math.floor(wholeFile / 2));
      const patches = seen.filter((r) => r.method === "PATCH").map((r) => r.offset);
      // The first from 0 (cut after half arrived); then, after asking the server (HEAD), from the half it has.
      expect(patches).toEqual(["0", half, half]);
      expect(seen.filter((r) => r.method === "HEAD").length).toBeGreaterThanOrEqual(1);

      const answers = await answersFor(db, question.promptId);
      expect(answers).toHaveLength(1);
      expect(answers[0]).toMatchObject({ content_type: "audio/webm", is_private: false, byte_size: String(wholeFile) });
      expect(answers[0].duration_ms).toBeGreaterThanOrEqual(1500);
      expect(answers[0].duration_ms).toBeLessThan(10_000);
      expect(await storedFiles(question.promptId)).toHaveLength(1);
    });

    test('offline at Send: "Not sent yet" keeps the recording, offers a download, and Try again sends it', async ({
      page,
      context,
      db,
    }) => {
      const owner = await newOwner(db);
      const question = await sentQuestion(db, owner.id);
      const ui = recordPage(page);
      await page.goto(question.url);
      await recordAndStop(page, 2);

      await context.setOffline(true);
      await ui.submitButton.click();
      await expect(ui.failure).toContainText(
        "Not sent yet: Your recording is safe on this phone. Try again when you have a connection, or download it.",
      );
      await expect(ui.progress).toBeHidden();
      await expect(ui.reviewPlayer).toHaveAttribute("src", /^blob:/);
      expect(await savedRecording(page, question.token)).toMatchObject({ finished: true });
      expect(await answersFor(db, question.promptId)).toEqual([]);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        ui.failure.getByRole("link", { name: "Download my recording" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("answer.webm");
      const saved = readFileSync((await download.path())!);
      expect(saved.subarray(0, 4).toString("hex")).toBe("1a45dfa3"); // a WebM (EBML) file

      await context.setOffline(false);
      await ui.failure.getByRole("button", { name: "Try again" }).click();
      await expect(page).toHaveURL(/[?&]submitted=1/, { timeout: 20_000 });
      await expect(ui.result).toHaveText("Sent. Thank you.");
      const answers = await answersFor(db, question.promptId);
      expect(answers).toHaveLength(1);
      expect(answers[0]).toMatchObject({
        content_type: "audio/webm",
        is_private: false,
        byte_size: String(saved.length),
      });
    });
  });

  test("the tab is closed before sending: the link offers the unsent recording, and Send this answer submits it", async ({
    page,
    context,
    db,
  }) => {
    const owner = await newOwner(db);
    const question = await sentQuestion(db, owner.id);
    await page.goto(question.url);
    await recordAndStop(page, 2);
    await expect
      .poll(() => savedRecording(page, question.token))
      .toMatchObject({ finished: true, mimeType: expect.stringContaining("audio/webm") });
    await page.close();

    const reopened = await context.newPage();
    const errors: string[] = [];
    reopened.on("pageerror", (error) => errors.push(error.message));
    const ui = recordPage(reopened);
    await reopened.goto(question.url);
    await expect(ui.recorder.getByText("You have a recording that was not sent yet.")).toBeVisible();
    await expect(ui.status).toHaveText("Your recording from before is here, not sent yet. Press Send this answer.");
    await expect(ui.recordButton).toBeHidden();
    await expect(ui.reviewPlayer).toHaveAttribute("src", /^blob:/);
    await expect(ui.recorder.getByRole("button", { name: "Delete it" })).toBeVisible();
    expect(await answersFor(db, question.promptId)).toEqual([]);

    await ui.submitButton.click();
    await expect(reopened).toHaveURL(/[?&]submitted=1/);
    await expect(ui.result).toHaveText("Sent. Thank you.");
    const answers = await answersFor(db, question.promptId);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content_type: "audio/webm", is_private: false });
    expect(answers[0].duration_ms).toBeGreaterThanOrEqual(1500);
    expect(answers[0].duration_ms).toBeLessThan(10_000);
    expect(await savedRecording(reopened, question.token)).toBeNull();
    // Opened twice, told once.
    expect(await notificationTypes(db, owner.id, question.promptId)).toEqual(["listened", "uploaded"]);
    expect(errors).toEqual([]);
  });

  test("leaving for another question with an unsent recording warns, and Save and go sends it first", async ({
    page,
    db,
  }) => {
    const owner = await newOwner(db);
    const { first, second } = await twoOpenQuestions(db, owner.id);
    const ui = recordPage(page);
    await page.goto(first.url);
    await recordAndStop(page, 2);

    await page.getByRole("link", { name: second.text }).click();
    await expect(ui.recorder.getByText("Your recording has not been sent yet.")).toBeVisible();
    await expect(ui.recorder.getByRole("link", { name: "Leave without sending" })).toBeVisible();
    const saveAndGo = ui.recorder.getByRole("button", { name: "Save and go" });
    await expect(saveAndGo).toBeFocused();
    expect(page.url()).toContain(first.url.split("?")[0]);

    await saveAndGo.click();
    // Sent, then on to the other question's own record page: no account on the way.
    await expect(ui.question).toHaveText(second.text);
    expect(new URL(page.url()).pathname).toMatch(/^\/record\//);
    const answers = await answersFor(db, first.promptId);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content_type: "audio/webm", is_private: false });
  });

  test("recording stops itself at 5:00 and can still be sent", async ({ page, db }) => {
    const owner = await newOwner(db);
    const question = await sentQuestion(db, owner.id);
    const ui = recordPage(page);
    await page.clock.install();
    await page.goto(question.url);
    await ui.recordButton.click();
    await expect(ui.status).toHaveText(RECORDING);
    await expect(ui.timer).toHaveText(/^(5:00|4:5\d) left$/);
    await page.waitForTimeout(1500); // a little real audio

    await page.clock.fastForward("05:00");
    await expect(ui.status).toHaveText(`5 minutes reached, so recording stopped. ${RECORDED}`);
    await expect(ui.timer).toBeHidden();
    await expect(ui.stopButton).toBeHidden();
    await expect(ui.submitButton).toBeVisible();
    await expect(ui.recorder.getByText("Listen to your recording")).toBeVisible();
    await expect(ui.reviewPlayer).toHaveAttribute("src", /^blob:/);
    // The countdown has stopped too.
    await page.clock.fastForward("00:10");
    await expect(ui.timer).toHaveText("0:00 left");

    await ui.submitButton.click();
    await expect(page).toHaveURL(/[?&]submitted=1/);
    await expect(ui.result).toHaveText("Sent. Thank you.");
    const answers = await answersFor(db, question.promptId);
    expect(answers).toHaveLength(1);
    expect(answers[0].duration_ms).toBeLessThan(60_000); // real time was short; the cap is the page's clock
  });
});

test.describe("without JavaScript", () => {
  test.skip(
    ({ javaScriptEnabled }) => javaScriptEnabled !== false,
    "the plain form, as a browser without JavaScript gets it",
  );

  test("answer by uploading a recording, kept private", async ({ page, db }) => {
    const owner = await newOwner(db);
    const question = await sentQuestion(db, owner.id);
    const ui = recordPage(page);
    await page.goto(question.url);
    await expect(ui.question).toHaveText(question.text);
    await expect(ui.recorder).toBeHidden();
    await expect(ui.fileInput).toHaveAttribute("accept", "audio/*");
    await expectNoAxeViolations(page);

    await ui.fileInput.setInputFiles(fixtureWebm);
    await page.getByLabel("Keep this answer private").check();
    await page.getByRole("button", { name: "Send this recording" }).click();
    await expect(ui.result).toHaveText("Sent. Thank you.");
    await expect(page.getByText("You kept this answer private. Only you can listen to it.")).toBeVisible();
    await expect(ui.answerPlayer).toHaveAttribute("src", `/record/${question.token}/audio`);

    const answers = await answersFor(db, question.promptId);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      content_type: "audio/webm",
      is_private: true,
      byte_size: String(fixtureWebmBytes),
      upload_id: null,
    });
    expect(answers[0].duration_ms).toBeGreaterThan(2500);
    expect(answers[0].duration_ms).toBeLessThan(3500);
    expect(await storedFiles(question.promptId)).toEqual([path.basename(answers[0].storage_key!)]);
    expect(await notificationTypes(db, owner.id, question.promptId)).toEqual(["uploaded"]);

    // Opening the link again shows the answer, with nothing left to send.
    await page.goto(question.url);
    await expect(ui.result).toHaveText("Your answer");
    await expect(ui.fileInput).toHaveCount(0);
  });

  test("skip the question: the confirm box is required, then it is skipped", async ({ page, db }) => {
    const owner = await newOwner(db);
    const question = await sentQuestion(db, owner.id);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.goto(question.url);

    await page.getByText("Skip this question", { exact: true }).click();
    const confirm = page.getByLabel("Yes, I want to skip this question");
    await expect(confirm).toBeVisible();
    const skip = page.getByRole("button", { name: "Skip", exact: true });
    await skip.click(); // unconfirmed: the browser refuses to send it
    await expect(confirm).toHaveJSProperty("validity.valueMissing", true);

    await confirm.check();
    await skip.click();
    await expect(page.getByRole("status")).toHaveText("You skipped this question. Thank you for letting us know.");
    expect(posts).toHaveLength(1);
    const prompt = await db
      .selectFrom("prompts")
      .select("skipped_at")
      .where("id", "=", question.promptId)
      .executeTakeFirstOrThrow();
    expect(prompt.skipped_at).not.toBeNull();
    expect(await answersFor(db, question.promptId)).toEqual([]);
    expect(await notificationTypes(db, owner.id, question.promptId)).toEqual(["skipped"]);
    await expectNoAxeViolations(page);

    await page.goto(question.url);
    await expect(page.getByRole("status")).toHaveText("You skipped this question. Thank you for letting us know.");
    await expect(recordPage(page).fileInput).toHaveCount(0);
  });
});

// The same form, with JavaScript behind "Or upload a recording".
test('the answered page passes axe ("Sent. Thank you." and, on reopening, "Your answer") @same-without-js', async ({
  page,
  db,
}) => {
  const owner = await newOwner(db);
  const question = await sentQuestion(db, owner.id);
  const posted = await page.request.post(`/record/${question.token}`, {
    multipart: { audio: { name: "answer.webm", mimeType: "audio/webm", buffer: readFileSync(fixtureWebm) } },
    headers: { "Sec-Fetch-Site": "same-origin" },
  });
  expect(posted.status()).toBe(200);
  // What the recorder opens after its upload, then the link opened again later.
  for (const [url, heading] of [
    [`/record/${question.token}?submitted=1&lng=en`, "Sent. Thank you."],
    [question.url, "Your answer"],
  ]) {
    await page.goto(url);
    await expect(recordPage(page).result).toHaveText(heading);
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    await expectNoAxeViolations(page);
  }
});

const badFiles: {
  name: string;
  file: () => { name: string; mimeType: string; buffer: Buffer };
  status: number;
  message: string;
}[] = [
  {
    name: "an HTML page renamed answer.webm",
    file: () => ({
      name: "answer.webm",
      mimeType: "audio/webm",
      buffer: Buffer.from(
        "<!doctype html><html><body><h1>Not audio</h1><script>alert(1)</script></body></html>\n".repeat(20),
      ),
    }),
    status: 422,
    message:
      "This file is not a voice recording we can use. Please choose the recording your phone, tablet or computer made.",
  },
  {
    name: "an empty file",
    file: () => ({ name: "answer.webm", mimeType: "audio/webm", buffer: Buffer.alloc(0) }),
    status: 400,
    message: "This file is empty.",
  },
  {
    name: "a six-minute recording",
    file: () => ({ name: "answer.wav", mimeType: "audio/wav", buffer: wav(6 * 60) }),
    status: 422,
    message: "This recording is longer than 5 minutes. Please record a shorter answer.",
  },
];
for (const bad of badFiles) {
  test(`uploading ${bad.name} is refused in plain words and nothing is stored`, async ({
    page,
    db,
    javaScriptEnabled,
  }) => {
    const owner = await newOwner(db);
    const question = await sentQuestion(db, owner.id);
    const form = recordPage(page);
    await page.goto(question.url);
    if (javaScriptEnabled !== false) await page.getByRole("button", { name: "Or upload a recording" }).click();
    await form.fileInput.setInputFiles(bad.file());
    const [response] = await Promise.all([
      // The form post (a document), not the recorder's "opened" post to the same address.
      page.waitForResponse(
        (r) =>
          r.request().method() === "POST" &&
          r.request().resourceType() === "document" &&
          r.url().includes(`/record/${question.token}`),
      ),
      page.getByRole("button", { name: "Send this recording" }).click(),
    ]);
    expect(response.status()).toBe(bad.status);
    await expect(page.getByRole("alert")).toHaveText(`Not sent yet: ${bad.message}`);
    // The way to try again is still there.
    if (javaScriptEnabled !== false) await expect(form.recordButton).toBeVisible();
    else await expect(form.fileInput).toBeVisible();
    expect(await answersFor(db, question.promptId)).toEqual([]);
    expect(await storedFiles(question.promptId)).toEqual([]);
    expect(await notificationTypes(db, owner.id, question.promptId)).not.toContain("uploaded");
  });
}

test("bad links: a tampered token, a deleted question's and an unsent question's are 404 \"Question not found\" @same-without-js", async ({
  page,
  db,
}) => {
  const owner = await newOwner(db);
  const tampered = await sentQuestion(db, owner.id);
  const deleted = await sentQuestion(db, owner.id);
  await db.deleteFrom("prompts").where("id", "=", deleted.promptId).execute();
  const unsent = await sentQuestion(db, owner.id);
  await db.updateTable("prompts").set({ sent_at: null }).where("id", "=", unsent.promptId).execute();
  const scripts = collectScriptRequests(page);

  for (const url of [`/record/${tamper(tampered.token)}?lng=en`, deleted.url, unsent.url]) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(404);
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer, strict-origin");
    expect(response?.headers()["cache-control"]).toBe("no-store");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Question not found");
    await expect(page.getByText("This link does not work any more.")).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
  }
  await expectNoAxeViolations(page);
  expect(scripts).toEqual([]);
  expect(await answersFor(db, tampered.promptId)).toEqual([]);
});

test("the record page: Referrer-Policy strict-origin, Cache-Control no-store, and no script but the recorder", async ({
  page,
  db,
  javaScriptEnabled,
  baseURL,
}) => {
  const owner = await newOwner(db);
  const question = await sentQuestion(db, owner.id);
  const scripts = collectScriptRequests(page);
  const referers: string[] = [];
  page.on("request", (request) => {
    const referer = request.headers()["referer"];
    if (referer) referers.push(referer);
  });

  const response = await page.goto(question.url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["referrer-policy"]).toBe("no-referrer, strict-origin");
  expect(response?.headers()["cache-control"]).toBe("no-store");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(question.text);

  if (javaScriptEnabled === false) {
    expect(scripts).toEqual([]);
  } else {
    await expect(recordPage(page).recordButton).toBeVisible();
    // The "opened" post has gone out (the listened notification), so every request the page makes has been made.
    await expect.poll(() => notificationTypes(db, owner.id, question.promptId)).toEqual(["listened"]);
    expect(scripts).toHaveLength(1);
    const script = new URL(scripts[0]);
    expect(script.origin).toBe(new URL(baseURL!).origin);
    expect(script.pathname).toMatch(/^\/assets\/recorder-[\w-]+\.js$/);
  }
  // The link's token never leaves in a Referer: at most our origin is sent, never the page's path.
  for (const referer of referers) expect(referer).toBe(`${new URL(baseURL!).origin}/`);
});

// Each state says itself in words and has one primary action, in both languages.
const words = {
  en: {
    ready: "Press Record, then say your answer.",
    record: "Record",
    recording: RECORDING,
    stop: "Stop",
    recorded: RECORDED,
    send: "Send this answer",
    again: "Record again",
    timeLeft: "5:00 left",
    sent: "Sent. Thank you.",
    fileButton: "Send this recording",
    fileLabel: "Choose a recording, or record one with your phone",
    others: "Your other questions",
  },
  hi: {
    ready: "रिकॉर्ड करें दबाइए, फिर अपना जवाब बोलिए।",
    record: "रिकॉर्ड करें",
    recording: "रिकॉर्डिंग हो रही है। बात पूरी होने पर रोकें दबाइए।",
    stop: "रोकें",
    recorded: "रिकॉर्ड हो गया, पर अभी भेजा नहीं गया। चाहें तो सुन लीजिए, फिर यह जवाब भेजें दबाइए।",
    send: "यह जवाब भेजें",
    again: "फिर से रिकॉर्ड करें",
    timeLeft: "5:00 बाकी",
    sent: "भेज दिया गया। धन्यवाद।",
    fileButton: "यह रिकॉर्डिंग भेजें",
    fileLabel: "कोई रिकॉर्डिंग चुनें, या फ़ोन से नई रिकॉर्ड करें",
    others: "आपके बाकी सवाल",
  },
} as const;

for (const language of ["en", "hi"] as const) {
  const say = words[language];

  test(`${language}: Record → Stop → Send this answer → Sent, one primary button and a status line in words per state`, async ({
    page,
    db,
    javaScriptEnabled,
  }) => {
    test.skip(javaScriptEnabled === false, "the recorder is the page's script");
    const owner = await newOwner(db);
    const [question] = await sentQuestions(db, owner.id, [`Kya yaad hai? (${Math.random()})`], language);
    const recorder = page.locator("#recorder");
    const status = recorder.getByRole("status");
    const primary = page.locator("main .btn-primary:visible");
    await page.goto(question.url);

    await expect(status).toHaveText(say.ready);
    await expect(recorder.getByRole("timer")).toHaveText(say.timeLeft);
    await expect(recorder.getByRole("button", { name: say.record, exact: true })).toBeEnabled();
    await expect(primary).toHaveText([say.record]);

    await recorder.getByRole("button", { name: say.record, exact: true }).click();
    await expect(status).toHaveText(say.recording);
    await expect(primary).toHaveText([say.stop]);
    await expect(recorder.getByRole("timer")).toBeVisible();
    await page.waitForTimeout(1500); // a little real audio from the fake microphone

    await recorder.getByRole("button", { name: say.stop, exact: true }).click();
    await expect(status).toHaveText(say.recorded);
    await expect(primary).toHaveText([say.send]);
    await expect(recorder.getByRole("button", { name: say.again, exact: true })).toBeVisible();
    await expect(recorder.locator("audio")).toHaveAttribute("src", /^blob:/);
    await expectNoAxeViolations(page);

    await recorder.getByRole("button", { name: say.send, exact: true }).click();
    // The server checks the file before it answers: room for a busy machine.
    await expect(page.getByRole("heading", { level: 2, name: say.sent })).toBeVisible({ timeout: 20_000 });
    await expect(page.locator("main .btn-primary:visible")).toHaveCount(0);
    expect(await answersFor(db, question.promptId)).toHaveLength(1);
  });

  test(`${language}: without JavaScript the file form says what to do, then "Sent. Thank you."`, async ({
    page,
    db,
    javaScriptEnabled,
  }) => {
    test.skip(javaScriptEnabled !== false, "the plain form, as a browser without JavaScript gets it");
    const owner = await newOwner(db);
    const [question] = await sentQuestions(db, owner.id, [`Kya yaad hai? (${Math.random()})`], language);
    await page.goto(question.url);
    // No recorder parts without scripting: no Record button that cannot record, no fold.
    await expect(page.locator("#recorder")).toBeHidden();
    await expect(page.locator("[data-upload-toggle]")).toBeHidden();
    await expect(page.locator("[data-file-steps]")).toBeVisible();
    await expect(page.locator("main .btn-primary:visible")).toHaveText([say.fileButton]);

    await page.getByLabel(say.fileLabel).setInputFiles(fixtureWebm);
    await page.getByRole("button", { name: say.fileButton }).click();
    await expect(page.getByRole("heading", { level: 2, name: say.sent })).toBeVisible();
    await expect(page.locator("main .btn-primary:visible")).toHaveCount(0);
    await expectNoAxeViolations(page);
    expect(await answersFor(db, question.promptId)).toHaveLength(1);
  });

  test(`${language}: the page's only links are her other open questions, which open without an account`, async ({
    page,
    db,
  }) => {
    const owner = await newOwner(db);
    const [first, second, answered, skipped] = await sentQuestions(
      db,
      owner.id,
      [0, 1, 2, 3].map((i) => `Question ${i} (${Math.random()})`),
      language,
    );
    await db.updateTable("prompts").set({ skipped_at: new Date() }).where("id", "=", skipped.promptId).execute();
    await page.request.post(`/record/${answered.token}`, {
      multipart: { audio: { name: "answer.webm", mimeType: "audio/webm", buffer: readFileSync(fixtureWebm) } },
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    expect(await answersFor(db, answered.promptId)).toHaveLength(1);

    await page.goto(first.url);
    const others = page.getByRole("navigation", { name: say.others });
    await expect(others.getByRole("link")).toHaveText([second.text]);
    const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
    expect(hrefs.filter((href) => !href.startsWith("?upload=1"))).toEqual([
      expect.stringMatching(new RegExp(`^/record/[^/?]+\\?lng=${language}$`)),
    ]);
    for (const href of hrefs) expect(href).not.toMatch(/register|login|dashboard|responses|account/);

    await others.getByRole("link", { name: second.text }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(second.text);
    expect(new URL(page.url()).pathname).toMatch(/^\/record\//);
    // And the other way round.
    await expect(page.getByRole("navigation", { name: say.others }).getByRole("link")).toHaveText([first.text]);
  });
}

test("nothing moves when the recorder starts: no layout shift from first paint to Record @same-without-js", async ({
  page,
  db,
}) => {
  const owner = await newOwner(db);
  const [first] = await sentQuestions(db, owner.id, ["What was your first home like?", "Who taught you to cook?"]);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.addInitScript(() => {
    (window as unknown as { shifts: number[] }).shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        (window as unknown as { shifts: number[] }).shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(first.url);
  await expect(recordPage(page).recordButton).toBeEnabled();
  await expect.poll(() => notificationTypes(db, owner.id, first.promptId)).toEqual(["listened"]);
  expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
});
