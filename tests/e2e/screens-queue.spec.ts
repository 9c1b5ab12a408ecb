import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createAnswer, createPrompt, createStoryteller } from "../factories";
import { signInAsNewUser, test } from "./fixtures";

// Screenshots of the overview (answers first), the queue, the picker, the Sent tab and the board
// (issue 22 items 2–4), at 360 and 1280 px, English and Hindi, into docs/screens/queue/. Run with
// SCREENS=1 (as `npm run screens` runs screens-record.spec.ts); skipped in the ordinary suite.

const OUT = path.resolve("docs/screens/queue");
const widths = [
  { name: "360", viewport: { width: 360, height: 800 } },
  { name: "1280", viewport: { width: 1280, height: 900 } },
];

test.skip(!process.env.SCREENS, "made with SCREENS=1");
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "screenshots with JavaScript");

async function shot(page: Page, name: string) {
  const png = await page.screenshot({ fullPage: true, animations: "disabled", caret: "hide" });
  await sharp(png)
    .png({ palette: true, quality: 80, compressionLevel: 9 })
    .toFile(path.join(OUT, `${name}.png`));
}

for (const language of ["en", "hi"] as const) {
  for (const width of widths) {
    test(`queue screens, ${language}, ${width.name} px`, async ({ browser, db, baseURL }) => {
      mkdirSync(OUT, { recursive: true });
      const context = await browser.newContext({
        viewport: width.viewport,
        locale: language === "hi" ? "hi-IN" : "en-US",
        reducedMotion: "reduce",
      });
      const page = await context.newPage();
      const user = await signInAsNewUser(db, context, baseURL!, "Neha");
      const texts =
        language === "hi"
          ? ["आपका पहला घर कैसा था?", "आपको खाना बनाना किसने सिखाया?", "आपकी शादी का दिन कैसा था?"]
          : ["What was your first home like?", "Who taught you to cook?", "What was your wedding day like?"];
      const st = await createStoryteller(db, {
        ownerId: user.id,
        nickname: language === "hi" ? "दादी" : "Grandma Rose",
        language,
        firstPromptDate: "2027-01-04",
        frequency: "weekly",
        nextSendAt: new Date("2027-01-04T15:00:00Z"),
        prompts: texts,
      });
      const day = (n: number) => new Date(Date.UTC(2026, 10, n));
      const asked = language === "hi" ? "आप बचपन में क्या खेलती थीं?" : "What did you play as a child?";
      const answered = await createPrompt(db, { storytellerId: st.id, text: asked, sentAt: day(10) });
      await createAnswer(db, { storytellerId: st.id, promptId: answered.id, durationMs: 83_000 });
      await createPrompt(db, {
        storytellerId: st.id,
        text: language === "hi" ? "आपका पहला काम क्या था?" : "What was your first job?",
        sentAt: day(12),
        skippedAt: day(13),
      });
      const name = (screen: string) => `${screen}-${language}-${width.name}`;

      await page.goto("/dashboard");
      await shot(page, name("overview"));
      await page.goto(`/dashboard/recipient/${st.id}`);
      await shot(page, name("queue"));
      await page.goto(`/dashboard/recipient/${st.id}?sent=true`);
      await shot(page, name("sent"));
      await page.goto(`/dashboard/recipient/${st.id}/prompts/new?q=${language === "hi" ? "गीत" : "song"}`);
      await shot(page, name("picker-search"));
      await page.goto(`/dashboard/kanban`);
      await shot(page, name("board"));
      await context.close();
    });
  }
}
