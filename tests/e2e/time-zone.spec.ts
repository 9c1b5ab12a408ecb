import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { createStoryteller } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// A grandson in New York sets up his grandmother in India, on a phone, in English and in Hindi:
// the time zone he finds is the one used, said in words, and a "Send now" at her night says when
// it will reach her.

// A search without JavaScript draws the step again with a 400 (conform's reply), which the browser logs.
test.use({
  allowedConsoleErrors: [/status of 400/],
  viewport: { width: 360, height: 740 },
  timezoneId: "America/New_York",
});

type Words = Record<string, unknown>;
const words = (language: string): Words =>
  JSON.parse(readFileSync(new URL(`../../locales/${language}/storytellers.json`, import.meta.url), "utf8"));

/** A storytellers key in `language`, with its {{values}} filled in. */
function say(language: string, key: string, values: Record<string, string> = {}) {
  const text = key.split(".").reduce<unknown>((node, part) => (node as Words)[part], words(language));
  return String(text).replace(/{{(\w+)}}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}

/** The text before a {{value}} and after it, to find a sentence whatever the value is. */
const around = (text: string, name: string) => text.split(`{{${name}}}`);

const hasJs = () => test.info().project.use.javaScriptEnabled !== false;

async function chooseWhatsApp(page: Page, language: string) {
  await page.getByLabel(say(language, "fields.delivery.whatsapp"), { exact: true }).check();
  if (!hasJs()) await page.getByRole("button", { name: say(language, "fields.showMethodFields") }).click();
}

for (const language of ["en", "hi"] as const) {
  const place = language === "hi" ? "कोलकाता, भारत" : "Kolkata, India";
  const searchFor = language === "hi" ? "भारत" : "India";

  test.describe(`in ${language === "hi" ? "Hindi" : "English"}`, () => {
    test.use({ locale: language === "hi" ? "hi-IN" : "en-US" });

    test(`the grandson adds Dadi (+91) by typing "${searchFor}": the review and the first send say 10:00 in Kolkata`, async ({
      page,
      context,
      db,
      baseURL,
    }) => {
      const user = await signInAsNewUser(db, context, baseURL!, "Aman");
      // His account's language is the one his screens speak (one language per person).
      await db.updateTable("users").set({ language }).where("id", "=", user.id).execute();
      await page.goto("/dashboard/onboarding");
      await page.getByLabel(say(language, "fields.nickname")).fill("Dadi");
      await page.getByLabel(say(language, "fields.firstName")).fill("Kamla");
      await chooseWhatsApp(page, language);
      await page.getByLabel(say(language, "fields.phone")).fill("+91 98765 43210");
      // The number's hint is WhatsApp's own, not the texts' US and Canada rule.
      await expect(page.getByText(say(language, "fields.phoneHints.whatsapp"))).toBeVisible();
      await expect(page.getByText(say(language, "fields.phoneHints.sms"))).toHaveCount(0);
      await page.getByLabel(new RegExp(around(say(language, "fields.whatsappConsent"), "appName")[0])).check();
      const zone = page.getByRole("combobox", { name: say(language, "fields.timeZone") });
      // Her number's country suggests its zone as it is typed.
      if (hasJs()) await expect(zone).toHaveValue("Asia/Kolkata");

      // He searches anyway, and presses Enter in the box: it finds her place, never sends the form.
      const search = page.getByLabel(say(language, "fields.zoneSearch"));
      await search.fill(searchFor);
      await search.press("Enter");
      await expect(page).not.toHaveURL(/step=2/);
      await expect(zone).toHaveValue("Asia/Kolkata");
      await expect(
        page.getByText(
          say(language, "fields.zoneAt", { place })
            .split(" — ")[0]
            .replace(/\.$|।$/, ""),
        ),
      ).toBeVisible();
      // Everything he typed is still there.
      await expect(page.getByLabel(say(language, "fields.nickname"))).toHaveValue("Dadi");
      await expect(page.getByLabel(say(language, "fields.phone"))).toHaveValue("+91 98765 43210");
      await expectNoAxeViolations(page);

      await page.getByRole("button", { name: say(language, "onboarding.next") }).click();
      await expect(page).toHaveURL(/step=2/);
      await page.getByLabel(say(language, "fields.customPrompts")).fill("What songs did your mother sing?");
      await page.getByRole("button", { name: say(language, "onboarding.next") }).click();

      // The review names her place in words, and with JavaScript his own time for her 10:00.
      await expect(page).toHaveURL(/step=3/);
      const review = page.getByRole("region", { name: say(language, "onboarding.review") });
      const [before, after] = around(
        say(language, hasJs() ? "fields.zoneAtForYou" : "fields.zoneAt", { place }),
        "time",
      );
      await expect(review).toContainText(before);
      if (hasJs()) await expect(review).toContainText(after.replace(/[.।]$/, ""));
      await expect(review).not.toContainText("Asia/Kolkata");
      await expectNoAxeViolations(page);
      await page.getByRole("button", { name: say(language, "onboarding.submit") }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      const storyteller = await db
        .selectFrom("storytellers as s")
        .innerJoin("schedules as sc", "sc.storyteller_id", "s.id")
        .select(["s.id", "s.time_zone", "sc.next_send_at"])
        .where("s.owner_id", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(storyteller.time_zone).toBe("Asia/Kolkata");
      // The first send is at 10:00 in Kolkata, and her page says so in words.
      const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Kolkata", timeStyle: "short" });
      expect(local.format(storyteller.next_send_at!)).toBe("10:00");
      await page.goto(`/dashboard/recipient/${storyteller.id}`);
      const [, tail] = around(say(language, "delivery.nextSend", { place }), "when");
      await expect(page.getByTestId("delivery-state")).toContainText(tail);
    });

    test("Send now at her night says when it will reach her, and shows it waiting on the Sent tab", async ({
      page,
      context,
      db,
      baseURL,
    }) => {
      const user = await signInAsNewUser(db, context, baseURL!, "Aman");
      // His account's language is the one his screens speak (one language per person).
      await db.updateTable("users").set({ language }).where("id", "=", user.id).execute();
      const timeZone = nightZone();
      const dadi = await createStoryteller(db, {
        ownerId: user.id,
        nickname: "Dadi",
        deliveryMethod: "whatsapp",
        phone: "+919876543210",
        smsConsent: "granted",
        timeZone,
        prompts: ["What games did you play as a child?", "What was your school like?"],
      });
      await page.goto(`/dashboard/recipient/${dadi.id}`);
      await page
        .getByRole("button", { name: say(language, "view.sendNow") })
        .first()
        .click();

      const time = "08:00";
      const [held] = around(say(language, "toast.sendNowHeld", { name: "Dadi", time }), "yourTime");
      await expect(page.getByRole("status").filter({ hasText: held.replace(/[.।]$/, "") })).toBeVisible();
      await expect(page).toHaveURL(/sent=true/);
      const waiting = page.getByTestId("sent-prompt").filter({ hasText: "What games did you play as a child?" });
      const reaches = say(language, "delivery.reachesAt", { name: "Dadi", time }).replace(/[.।]$/, "");
      await expect(waiting.getByTestId("waiting")).toContainText(say(language, "view.status.waiting"));
      await expect(waiting.getByTestId("waiting")).toContainText(reaches);
      if (hasJs()) await expect(waiting.getByTestId("waiting")).toContainText(/\d/);
      await expectNoAxeViolations(page);

      // Nothing went to her in the night; her ledger row is due at 08:00 there.
      const delivery = await db
        .selectFrom("deliveries")
        .select(["status", "scheduled_for"])
        .where("prompt_id", "=", dadi.prompts[0].id)
        .executeTakeFirstOrThrow();
      expect(delivery.status).toBe("pending");
      const there = new Intl.DateTimeFormat("en-GB", { timeZone, timeStyle: "short" });
      expect(there.format(delivery.scheduled_for)).toBe(time);
      expect(
        await db.selectFrom("outbox_messages").select("id").where("to_address", "like", "%919876543210").execute(),
      ).toEqual([]);
    });
  });
}

/** A zone where it is night now (01:00–06:59), so quiet hours hold a text sent there. */
function nightZone() {
  const zones = [
    "Asia/Kolkata",
    "Europe/London",
    "America/Los_Angeles",
    "Asia/Tokyo",
    "Pacific/Honolulu",
    "Australia/Sydney",
    "America/Sao_Paulo",
    "Asia/Dubai",
    "Pacific/Auckland",
    "America/New_York",
  ];
  const hourIn = (zone: string) =>
    Number(new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", hourCycle: "h23" }).format(new Date()));
  const zone = zones.find((z) => hourIn(z) >= 1 && hourIn(z) <= 6);
  if (!zone) throw new Error("no zone at night now");
  return zone;
}
