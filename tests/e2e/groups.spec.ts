import type { Route } from "@playwright/test";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import {
  fillInvitations,
  invitationLink,
  javaScriptOn,
  newBrowser,
  openAddGroup,
  registerThroughInvitation,
  toast,
  uniqueEmail,
} from "./group-helpers";

// Add Group's refusals and an invitation link's states. The whole family story (Send now, the
// answer, revoke, remove, delete) is one chained journey in family-journey.spec.ts.

// Refused form posts (400, without JavaScript) are logged by the browser.
test.use({ allowedConsoleErrors: [/status of 400/] });

test("Add Group refuses each step's mistakes beside the field; an accepted invitation link says so", async ({
  page,
  context,
  baseURL,
  db,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await signInAsNewUser(db, context, baseURL!, "Meera");
  const first = uniqueEmail("first");

  const { steps, onStep } = await openAddGroup(page);
  await onStep("1. The group");
  await steps.getByLabel("Group name").fill("A");
  await steps.getByLabel("Description").fill("Short");
  await steps.getByRole("button", { name: "Next" }).click();
  await expect(steps.getByText("Too short")).toHaveCount(2);
  await expectNoAxeViolations(page);
  await steps.getByLabel("Group name").fill("Dadi's circle");
  await steps.getByLabel("Description").fill("Everyone who misses Dadi");
  await steps.getByRole("button", { name: "Next" }).click();

  await onStep("2. Storyteller");
  await steps.getByLabel("Nickname").fill("Dadi");
  await steps.getByLabel("First name").fill("Savitri");
  await steps.getByLabel("Their email").fill(uniqueEmail("dadi"));
  await steps.getByRole("button", { name: "Add this Storyteller" }).click();

  await onStep("3. Invite");
  await fillInvitations(steps, [first, owner.email]);
  await steps.getByRole("button", { name: "Create group" }).click();
  await expect(steps.getByText("That is your own address")).toBeVisible();
  await expectNoAxeViolations(page);
  await steps.getByLabel("Email address 2").fill("");
  await steps.getByRole("button", { name: "Create group" }).click();
  await expect(toast(page, "Group created successfully")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dadi's circle");
  const groupUrl = page.url();

  // The invitee registers through the emailed link and accepts; the link then says it was accepted
  // and leads its member to the Storyteller.
  const invitee = await newBrowser(browser);
  const firstLink = await invitationLink(db, first);
  await registerThroughInvitation(
    invitee.page,
    db,
    { link: firstLink, email: first, groupName: "Dadi's circle" },
    { firstName: "Ravi", lastName: "Rao", nickname: "ravi" },
  );
  await invitee.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(toast(invitee.page, "You joined Dadi's circle")).toBeVisible();
  await expect(invitee.page).toHaveURL(groupUrl);
  await expect(invitee.page.getByRole("link", { name: "Leave group" })).toBeVisible();
  await invitee.page.goto(firstLink);
  await expect(invitee.page.getByText("This invitation has already been accepted.")).toBeVisible();
  await expect(invitee.page.getByRole("link", { name: "Open Dadi's page" })).toBeVisible();
  await expectNoAxeViolations(invitee.page);
  await invitee.page.goto("/dashboard");
  await expect(invitee.page.getByTestId("storyteller-card")).toContainText("group Storyteller · Dadi's circle");
  await expect(invitee.page.getByTestId("group-card")).toContainText("Dadi's circle");
  await invitee.context.close();
});

// Decision 058. A .data answer whose first line has arrived but whose end has not (the server writes
// the end separately), aborted then, used to leave two unhandled "signal is aborted without reason"
// rejections in React Router's turbo-stream decoder. Here Next's revalidation is caught in that
// window: the overview's .data keeps its end back, the dialog's own reload is held, and the next
// step's post aborts both.
test("a step posted while the last step's reload is still arriving leaves no error behind", async ({
  page,
  context,
  baseURL,
  db,
}) => {
  test.skip(!javaScriptOn(), "the dialog's fetchers need JavaScript");
  await signInAsNewUser(db, context, baseURL!, "Meera");
  await page.addInitScript(holdDataBodyEnds);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));

  const { steps, onStep } = await openAddGroup(page);
  await onStep("1. The group");
  await steps.getByLabel("Group name").fill("Dadi's circle");
  await steps.getByLabel("Description").fill("Everyone who misses Dadi");
  const heldReloads: Route[] = [];
  await page.route(/\/dashboard\/groups\/new\.data\?step=1/, (route) =>
    route.request().method() === "GET" ? void heldReloads.push(route) : route.fallback(),
  );
  await page.evaluate(() => ((window as HoldingWindow).holdDataEnds = true));
  await steps.getByRole("button", { name: "Next" }).click();

  await onStep("2. Storyteller");
  await expect.poll(() => page.evaluate(() => (window as HoldingWindow).heldEnds)).toBe(1);
  await expect.poll(() => heldReloads.length).toBe(1);
  await steps.getByLabel("Nickname").fill("Dadi");
  await steps.getByLabel("First name").fill("Savitri");
  await steps.getByLabel("Their email").fill(uniqueEmail("dadi"));
  await page.evaluate(() => ((window as HoldingWindow).holdDataEnds = false));
  await steps.getByRole("button", { name: "Add this Storyteller" }).click();

  await onStep("3. Invite");
  await expect.poll(() => page.evaluate(() => (window as HoldingWindow).abortedEnds)).toBe(1);
  await Promise.all(heldReloads.map((route) => route.continue().catch(() => {})));
  // Unhandled rejections are reported a task after they happen.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  expect(pageErrors).toEqual([]);
});

type HoldingWindow = Window & { holdDataEnds?: boolean; heldEnds?: number; abortedEnds?: number };

/**
 * In the page: while `holdDataEnds` is set, a GET .data answer passes every byte on but keeps its end
 * back until its request is aborted, which then fails the body as Chromium fails an aborted body.
 */
function holdDataBodyEnds() {
  const held = window as HoldingWindow;
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await realFetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    const signal = init?.signal;
    const get = (init?.method ?? "GET") === "GET";
    if (!held.holdDataEnds || !get || !url.pathname.endsWith(".data") || !response.body || !signal) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        held.heldEnds = (held.heldEnds ?? 0) + 1;
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        held.abortedEnds = (held.abortedEnds ?? 0) + 1;
        controller.error(signal.reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
