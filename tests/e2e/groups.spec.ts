import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import {
  fillInvitations,
  invitationLink,
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
