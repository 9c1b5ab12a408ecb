import type { Db } from "../../db/client";
import { createNotifications, createStoryteller, createUser } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

/**
 * A Storyteller of the user's with eight unread notifications, newest first: uploaded, new,
 * listened, skipped, queue_empty, an unknown type, skipped, uploaded. "new" and "listened" are kept
 * but never shown nor counted (decision 050), so the bell shows six: uploaded, skipped |
 * queue_empty, an unknown type, skipped | uploaded.
 */
async function seedNotifications(db: Db, userId: string) {
  const storyteller = await createStoryteller(db, {
    ownerId: userId,
    nickname: "Dadi",
    firstName: "Sushila",
    email: "dadi@example.com",
    timeZone: "Asia/Kolkata",
    prompts: [{ text: "What was your village like?", sentAt: new Date() }],
  });
  const [prompt] = storyteller.prompts;
  const types = ["uploaded", "new", "listened", "skipped", "queue_empty", "mystery", "skipped", "uploaded"];
  const now = Date.now();
  for (const [i, type] of types.entries()) {
    await createNotifications(db, {
      userId,
      type,
      storytellerId: storyteller.id,
      promptId: prompt.id,
      createdAt: [new Date(now - (i + 1) * 60_000)],
    });
  }
  return { storytellerId: storyteller.id, promptId: prompt.id };
}

const unreadOf = async (db: Db, userId: string) =>
  (await db.selectFrom("notifications").select("id").where("user_id", "=", userId).where("is_new", "=", true).execute())
    .length;

test("the notifications page lists everything with links, and Mark all as read works (a plain form)", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  const user = await signInAsNewUser(db, context, baseURL!, "Pooja");
  const { storytellerId } = await seedNotifications(db, user.id);
  await page.goto("/dashboard");

  if (test.info().project.use.javaScriptEnabled === false) {
    // Without JavaScript the bell is a link to the page, with the unread count.
    const bell = page.getByRole("link", { name: "Notifications: 6 unread" });
    await expect(bell).toHaveAttribute("href", "/dashboard/notifications");
    await expect(bell.getByTestId("unread-badge")).toHaveText("6");
    await bell.click();
  } else {
    await expect(page.getByRole("button", { name: "Notifications: 6 unread" })).toBeVisible();
    await page.goto("/dashboard/notifications");
  }

  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByText("You have 6 unread messages")).toBeVisible();
  const list = page.getByTestId("notification-list");
  await expect(list.getByRole("listitem")).toHaveCount(6);
  await expect(list.getByTestId("unread-marker")).toHaveCount(6);
  await expect(list.getByRole("link", { name: /Dadi answered a question/ }).first()).toHaveAttribute(
    "href",
    new RegExp(`^/dashboard/recipient/${storytellerId}\\?sent=true#prompt-[0-9a-f-]{36}$`), // that answer on the Sent tab
  );
  await expect(list.getByText(/A new question was sent to Dadi|Dadi opened a question/)).toHaveCount(0);
  await expect(list.getByRole("link", { name: /Dadi skipped a question/ }).first()).toHaveAttribute(
    "href",
    new RegExp(`^/dashboard/recipient/${storytellerId}\\?sent=true#prompt-[0-9a-f-]{36}$`), // that answer on the Sent tab
  );
  await expect(list.getByRole("link", { name: /no questions left/ })).toHaveAttribute(
    "href",
    `/dashboard/recipient/${storytellerId}/prompts/new`,
  );
  await expect(list.getByText("You have a new notification")).toBeVisible(); // the unknown type: text, no link
  await expect(list.getByRole("link")).toHaveCount(5);
  await expect(list.getByText("“What was your village like?”").first()).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page).toHaveURL(/\/dashboard\/notifications$/);
  await expect(page.getByRole("status").filter({ hasText: "All notifications marked as read" })).toBeVisible();
  await expect(main.getByText("You have no unread messages")).toBeVisible();
  await expect(list.getByTestId("unread-marker")).toHaveCount(0);
  await expect(page.getByTestId("unread-badge")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  expect(await unreadOf(db, user.id)).toBe(0);

  // The list follows the language.
  await page.goto("/dashboard/notifications?lng=hi");
  await expect(page.getByRole("heading", { level: 1, name: "सूचनाएँ" })).toBeVisible();
  await expect(list.getByRole("link", { name: /Dadi ने एक सवाल का जवाब दिया/ }).first()).toBeVisible();
});

test("another user's notifications cannot be marked read @same-without-js", async ({ page, context, db, baseURL }) => {
  const other = await createUser(db, { first_name: "Other", nickname: "other" });
  await seedNotifications(db, other.id);
  const theirs = await db.selectFrom("notifications").select("id").where("user_id", "=", other.id).execute();
  await signInAsNewUser(db, context, baseURL!, "Sneaky");
  const response = await page.request.post("/resources/notifications", {
    form: { id: theirs[0].id },
    headers: { Origin: baseURL! },
  });
  expect(response.ok()).toBe(true);
  await page.request.post("/dashboard/notifications", {
    form: { intent: "markAllRead" },
    headers: { Origin: baseURL! },
  });
  expect(await unreadOf(db, other.id)).toBe(8);
});

test.describe("with JavaScript", () => {
  test.skip(() => test.info().project.use.javaScriptEnabled === false, "the popover needs JavaScript");

  test("the popover: what it showed unread stays New and counted, marked read only after the server confirms, targets, Escape", async ({
    page,
    context,
    db,
    baseURL,
  }) => {
    const user = await signInAsNewUser(db, context, baseURL!, "Kiran");
    const { storytellerId, promptId } = await seedNotifications(db, user.id);
    await page.goto("/dashboard");
    const bell = page.getByRole("button", { name: "Notifications: 6 unread" });
    await expect(bell).toHaveAttribute("aria-expanded", "false");
    await expect(bell.getByTestId("unread-badge")).toHaveText("6");

    // Hold the "mark read" POST: until the server has answered, nothing changes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let marked = 0;
    await page.route(/\/resources\/notifications/, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      marked += 1;
      await held;
      await route.continue();
    });

    await bell.click();
    await expect(bell).toHaveAttribute("aria-expanded", "true");
    const popover = page.getByRole("region", { name: "Notifications" });
    await expect(popover).toBeVisible();
    await expect(popover).toBeFocused();
    const newest = popover.getByTestId("notifications-newSection").getByRole("listitem");
    const earlier = popover.getByTestId("notifications-earlierSection").getByRole("listitem");
    // All five shown are unread: all under "New", nothing "Before that".
    await expect(popover.getByRole("heading", { name: "New" })).toBeVisible();
    await expect(popover.getByRole("heading", { name: "Before that" })).toHaveCount(0);
    await expect(newest).toHaveCount(5);
    await expect(newest.nth(0)).toContainText("Dadi answered a question");
    await expect(newest.nth(1)).toContainText("Dadi skipped a question");
    await expect(newest.nth(2)).toContainText("Dadi has no questions left");
    await expect(newest.nth(3)).toContainText("You have a new notification");
    await expect(newest.nth(4)).toContainText("Dadi skipped a question");
    // The one not shown is named, the same before and after the server confirms (6 → 1).
    const seeAll = popover.getByRole("link", { name: "See all (1 more unread)" });
    await expect(seeAll).toHaveAttribute("href", "/dashboard/notifications");

    await expect.poll(() => marked).toBe(1);
    await expect(popover.getByText("You have 6 unread messages")).toBeVisible();
    await expect(popover.getByTestId("unread-marker")).toHaveCount(5);
    await expect(page.getByTestId("unread-badge")).toHaveText("6");
    expect(await unreadOf(db, user.id)).toBe(8);
    await expectNoAxeViolations(page);

    release();
    await expect(page.getByRole("button", { name: "Notifications: 1 unread" })).toBeVisible();
    await expect(page.getByTestId("unread-badge")).toHaveText("1");
    // What this opening showed unread is still new to the reader here: never "no unread" above "New".
    await expect(popover.getByText("You have 6 unread messages")).toBeVisible();
    await expect(newest).toHaveCount(5);
    await expect(seeAll).toBeVisible();
    // The oldest (not shown) is the one left, with the two quiet rows nobody is shown.
    const left = await db
      .selectFrom("notifications")
      .select("type")
      .where("user_id", "=", user.id)
      .where("is_new", "=", true)
      .orderBy("type")
      .execute();
    expect(left.map((n) => n.type)).toEqual(["listened", "new", "uploaded"]);
    // The list reloads after the confirmation: its items are read now, and nothing is posted again.
    await expect(popover.getByTestId("unread-marker")).toHaveCount(0);
    expect(marked).toBe(1);
    await page.unroute(/\/resources\/notifications/);

    // Escape closes and gives focus back to the bell.
    await page.keyboard.press("Escape");
    await expect(popover).toBeHidden();
    await expect(page.getByRole("button", { name: /^Notifications:/ })).toBeFocused();

    // Opened again, the five are read: "Before that", and the summary counts the one left.
    const bellNow = page.getByRole("button", { name: "Notifications: 1 unread" });
    await bellNow.click();
    await expect(earlier).toHaveCount(5);
    await expect(popover.getByRole("heading", { name: "New" })).toHaveCount(0);
    await expect(popover.getByText("You have 1 unread message")).toBeVisible();
    // An unknown type just closes.
    await earlier.nth(3).getByRole("button").click();
    await expect(popover).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard$/);

    // An answer and a skip lead to that question, with its answer, on the Storyteller's Sent tab; an
    // empty queue to adding questions.
    await bellNow.click();
    await earlier.nth(0).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/recipient/${storytellerId}\\?sent=true#prompt-${promptId}$`));
    await expect(page.locator(`#prompt-${promptId}`)).toBeInViewport();
    await expect(popover).toBeHidden();
    // From another page: a link to the page already open would not close the popover by navigating.
    await page.goto("/dashboard");
    await bellNow.click();
    await earlier.nth(1).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/recipient/${storytellerId}\\?sent=true#prompt-${promptId}$`));
    // Each link closes the popover as the page moves on; the next press opens it on the new page.
    await expect(popover).toBeHidden();
    await bellNow.click();
    await earlier.nth(2).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/recipient/${storytellerId}/prompts/new$`));
    await expect(popover).toBeHidden();

    // Mark all as read, from the popover.
    await bellNow.click();
    await popover.getByRole("button", { name: "Mark all as read" }).click();
    await expect(page.getByRole("button", { name: "Notifications: 0 unread" })).toBeVisible();
    await expect(popover.getByText("You have no unread messages")).toBeVisible();
    await expect(page.getByTestId("unread-badge")).toHaveCount(0);
    expect(await unreadOf(db, user.id)).toBe(0);
  });

  test("the bell opens when pressed while the next page is still being drawn", async ({
    page,
    context,
    db,
    baseURL,
  }) => {
    const user = await signInAsNewUser(db, context, baseURL!, "Asha");
    const { storytellerId } = await seedNotifications(db, user.id);
    await page.goto("/dashboard");
    const bell = page.getByRole("button", { name: /^Notifications:/ });
    const popover = page.getByRole("region", { name: "Notifications" });
    await bell.click();
    // A slow phone: the new address is in the bar well before the Sent tab is drawn.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 30 });
    await popover.getByTestId("notifications-newSection").getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/recipient/${storytellerId}\\?sent=true#prompt-`));
    await bell.click();
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await expect(popover).toBeVisible();
    await expect(bell).toHaveAttribute("aria-expanded", "true");
  });

  test("See all while the popover's list is still loading: the request is dropped, nothing breaks", async ({
    page,
    context,
    db,
    baseURL,
  }) => {
    // The popover's list went through a router fetcher, which first waits for
    // route discovery (/__manifest) and then takes part in the router's navigation; "See all"
    // clicked meanwhile raced it and now and then broke the page. The list is a plain request now,
    // aborted when the popover closes. (Any page error or console error fails this test.)
    const user = await signInAsNewUser(db, context, baseURL!, "Tara");
    await seedNotifications(db, user.id);
    await page.goto("/dashboard");
    const routerRequests: string[] = [];
    page.on("request", (request) => {
      if (/resources%2Fnotifications|\/resources\/notifications\.data/.test(request.url()))
        routerRequests.push(request.url());
    });
    const aborted: string[] = [];
    page.on("requestfailed", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith("/resources/")) aborted.push(pathname);
    });

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let listRequests = 0;
    await page.route(/\/resources\/notifications/, async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      listRequests += 1;
      await held;
      await route.continue().catch(() => {}); // the page has dropped it by now
    });

    await page.getByRole("button", { name: /^Notifications:/ }).click();
    const popover = page.getByRole("region", { name: "Notifications" });
    await expect(popover.getByText("Loading notifications…")).toBeVisible();
    await expect.poll(() => listRequests).toBe(1);
    await popover.getByRole("link", { name: "See all" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    await expect.poll(() => aborted).toEqual(["/resources/notifications"]);
    release();

    // The page stays whole, nothing was marked read, and the router never looked the resource up.
    await expect(page.getByTestId("notification-list").getByRole("listitem")).toHaveCount(6);
    await expect(page.getByRole("button", { name: "Notifications: 6 unread" })).toBeVisible();
    expect(await unreadOf(db, user.id)).toBe(8);
    expect(routerRequests).toEqual([]);

    // Opened again, the popover loads and marks as before.
    await page.unroute(/\/resources\/notifications/);
    await page.getByRole("button", { name: "Notifications: 6 unread" }).click();
    await expect(popover.getByTestId("unread-marker")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Notifications: 1 unread" })).toBeVisible();
  });

  test("a click outside closes the popover", async ({ page, context, db, baseURL }) => {
    const user = await signInAsNewUser(db, context, baseURL!, "Arjun");
    await seedNotifications(db, user.id);
    await page.goto("/dashboard");
    await page.getByRole("button", { name: /^Notifications:/ }).click();
    const popover = page.getByRole("region", { name: "Notifications" });
    await expect(popover.getByRole("listitem")).toHaveCount(5);
    await page.getByRole("heading", { level: 1 }).click();
    await expect(popover).toBeHidden();
  });
});
