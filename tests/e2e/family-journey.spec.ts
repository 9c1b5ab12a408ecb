import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";
import {
  addOwnQuestion,
  expectAudioPlays,
  fillInvitations,
  invitationLink,
  javaScriptOn,
  newBrowser,
  openAddGroup,
  recordLink,
  registerThroughInvitation,
  toast,
  uniqueEmail,
} from "./group-helpers";
import { answersFor } from "./recording-helpers";

// The family's journey, chained from start to end, with JavaScript on and off and axe on every
// new screen: a group made around a new Storyteller with two invitations; the first invitee registers
// through the link and adds a question; the owner sends it now; the Storyteller answers by uploading
// a recording on the record page; the collaborator is told, hears it on the Storyteller page and the
// Timeline, and cannot delete it; the second invitation is revoked; the collaborator is removed and
// gets 404 everywhere; the group is deleted, and the Storyteller and the answer stay with the owner.

// Refused posts (the hand-made delete, without JavaScript) and the removed collaborator's 404s are
// logged by the browser.
test.use({ allowedConsoleErrors: [/status of 40[04]/] });

const GROUP = "Dadi's circle";
const QUESTION = "What songs did you sing at weddings?";
const recording = path.resolve("tests/fixtures/recording-3s.webm");

const axe = (page: Page) => expectNoAxeViolations(page);
const statusOf = async (page: Page, url: string) => (await page.goto(url))?.status();

test("the family: a group, an invitee who asks, an answer they hear and cannot delete, then revoked, removed, deleted", async ({
  page,
  context,
  baseURL,
  db,
  browser,
}) => {
  // Four people in their own browsers, a real email send, upload and notification, axe throughout.
  test.setTimeout(300_000);
  const owner = await signInAsNewUser(db, context, baseURL!, "Meera");
  const first = uniqueEmail("first");
  const second = uniqueEmail("second");
  const dadiEmail = uniqueEmail("dadi");

  // 1. The owner creates the group around a new Storyteller, inviting two people.
  const { steps, onStep } = await openAddGroup(page);
  await onStep("1. The group");
  await axe(page);
  await steps.getByLabel("Group name").fill(GROUP);
  await steps.getByLabel("Description").fill("Everyone who misses Dadi");
  await steps.getByRole("button", { name: "Next" }).click();
  await onStep("2. Storyteller");
  await axe(page);
  await steps.getByLabel("Nickname").fill("Dadi");
  await steps.getByLabel("First name").fill("Savitri");
  await steps.getByLabel("Their email").fill(dadiEmail);
  // Far ahead (the form takes up to a year), so the schedule sends nothing by itself: the question
  // goes out by Send now.
  const farAhead = new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10);
  await steps.getByLabel("Date of the first question").fill(farAhead);
  await steps.getByRole("button", { name: "Add this Storyteller" }).click();
  await onStep("3. Invite");
  await axe(page);
  await fillInvitations(steps, [first, second]);
  await steps.getByRole("button", { name: "Create group" }).click();
  await expect(toast(page, "Group created successfully")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(GROUP);
  const pending = page.getByRole("region", { name: "Pending invitations" });
  await expect(pending).toContainText(first);
  await expect(pending).toContainText(second);
  await axe(page);
  const groupUrl = new URL(page.url()).pathname;
  const { storyteller_id: storytellerId } = await db
    .selectFrom("groups")
    .select("storyteller_id")
    .where("owner_id", "=", owner.id)
    .executeTakeFirstOrThrow();
  const storytellerPage = `/dashboard/recipient/${storytellerId}`;

  // 2. The first invitee opens the emailed link, registers through it, joins, and sees the Storyteller.
  const ravi = await newBrowser(browser);
  const firstLink = await invitationLink(db, first);
  await registerThroughInvitation(
    ravi.page,
    db,
    { link: firstLink, email: first, groupName: GROUP },
    { firstName: "Ravi", lastName: "Rao", nickname: "ravi" },
    axe,
  );
  await axe(ravi.page);
  await ravi.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(toast(ravi.page, `You joined ${GROUP}`)).toBeVisible();
  await expect(ravi.page).toHaveURL(new RegExp(`${groupUrl}$`));
  await axe(ravi.page);
  await ravi.page.goto("/dashboard");
  const card = ravi.page.getByTestId("storyteller-card");
  await expect(card).toContainText(`group Storyteller · ${GROUP}`);
  await axe(ravi.page);
  await card.getByRole("link", { name: "Dadi" }).first().click();
  await expect(ravi.page).toHaveURL(new RegExp(`${storytellerPage}$`));
  await expect(ravi.page.getByRole("heading", { level: 1 })).toHaveText("Dadi");
  await axe(ravi.page);

  // 3. The collaborator adds a question; it waits in the queue, marked as theirs.
  await addOwnQuestion(ravi.page, QUESTION, axe);
  const theirs = ravi.page.getByTestId("queued-prompt").filter({ hasText: QUESTION });
  await expect(theirs).toContainText("Added by you");
  await expect(theirs.getByRole("button", { name: "Send now" })).toHaveCount(0);

  // 4. The owner presses Send now on it; the Storyteller is emailed its record link.
  await page.goto(storytellerPage);
  await axe(page);
  await page
    .getByTestId("queued-prompt")
    .filter({ hasText: QUESTION })
    .getByRole("button", { name: "Send now" })
    .click();
  await expect(toast(page, "The question will be sent shortly")).toBeVisible();
  const link = await recordLink(db, dadiEmail);

  // 5. The Storyteller answers on the record page by sending a recording file (no sign-in).
  const dadi = await newBrowser(browser);
  await dadi.page.goto(link);
  await expect(dadi.page.getByRole("heading", { level: 1 })).toHaveText(QUESTION);
  await axe(dadi.page);
  if (javaScriptOn()) await dadi.page.getByRole("button", { name: "Or upload a recording" }).click();
  await dadi.page.getByLabel("Choose a recording, or record one with your phone").setInputFiles(recording);
  await dadi.page.getByRole("button", { name: "Send this recording" }).click();
  await expect(dadi.page.getByRole("main").getByRole("status").getByRole("heading", { level: 2 })).toHaveText(
    "Sent. Thank you.",
  );
  await axe(dadi.page);
  await dadi.context.close();
  const prompt = await db
    .selectFrom("prompts")
    .select("id")
    .where("storyteller_id", "=", storytellerId)
    .where("text", "=", QUESTION)
    .executeTakeFirstOrThrow();
  const [answer] = await answersFor(db, prompt.id);
  expect(answer).toMatchObject({ content_type: "audio/webm", is_private: false });

  // 6. The collaborator is told, by the bell, and its notice leads to the answer on the Storyteller page.
  await expect(async () => {
    await ravi.page.goto("/dashboard");
    await expect(
      ravi.page.getByRole(javaScriptOn() ? "button" : "link", { name: /^Notifications: \d+ unread$/ }),
    ).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 15_000 });
  const bell = ravi.page.getByRole(javaScriptOn() ? "button" : "link", { name: /^Notifications: \d+ unread$/ });
  await bell.click();
  const notices = javaScriptOn()
    ? ravi.page.getByRole("region", { name: "Notifications" })
    : ravi.page.getByTestId("notification-list");
  const answered = notices.getByRole("link", { name: /Dadi answered a question/ });
  await expect(answered).toBeVisible();
  await axe(ravi.page);
  await answered.click();
  // The answer itself: its question on the Sent tab.
  await expect(ravi.page).toHaveURL(new RegExp(`${storytellerPage}\\?sent=true#prompt-`));
  const sent = ravi.page.getByTestId("sent-prompt").filter({ hasText: QUESTION });
  await expect(sent).toContainText("Answered");
  const player = sent.locator("audio");
  await expect(player).toHaveAttribute("src", `/media/answer/${answer.id}`);
  expect((await ravi.page.request.get(`/media/answer/${answer.id}`)).status()).toBe(200);
  if (javaScriptOn()) await expectAudioPlays(player);
  await axe(ravi.page);

  // ... and finds no way to delete it: no control, and a hand-made delete is refused.
  await expect(sent.getByText("Delete", { exact: true })).toHaveCount(0);
  await expect(sent.getByRole("button", { name: /Delete/ })).toHaveCount(0);
  const refused = await ravi.page.request.post(storytellerPage, {
    form: { intent: "answer-delete", answerId: answer.id, confirm: "on" },
    headers: { Origin: baseURL! },
  });
  expect(refused.status()).toBe(404);
  expect(await answersFor(db, prompt.id)).toHaveLength(1);

  // 7. The collaborator hears it on the Timeline too.
  await ravi.page.goto("/dashboard/timeline");
  const onTimeline = ravi.page.getByTestId("timeline-answer").filter({ hasText: QUESTION });
  await expect(onTimeline.getByTestId("timeline-storyteller")).toHaveText("Dadi");
  await expect(onTimeline.locator("audio")).toHaveAttribute("src", `/media/answer/${answer.id}`);
  if (javaScriptOn()) await expectAudioPlays(onTimeline.locator("audio"));
  await axe(ravi.page);

  // 8. The owner revokes the second invitation; its link then says so.
  await page.goto(groupUrl);
  await expect(page.getByRole("region", { name: "Members" })).toContainText(first);
  await page.getByRole("link", { name: `Revoke ${second}` }).click();
  await expect(page.getByRole("region", { name: /Revoke the invitation/ })).toBeVisible();
  await axe(page);
  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(toast(page, "Invitation revoked")).toBeVisible();
  await expect(page.getByRole("region", { name: "Pending invitations" })).not.toContainText(second);
  const stranger = await newBrowser(browser);
  await stranger.page.goto(await invitationLink(db, second));
  await expect(stranger.page.getByText("This invitation was withdrawn.")).toBeVisible();
  await axe(stranger.page);
  await stranger.context.close();

  // 9. The owner removes the collaborator, who at once gets 404 everywhere.
  await page.getByRole("link", { name: "Remove Ravi" }).click();
  await axe(page);
  await page.getByRole("button", { name: "Remove" }).click();
  await expect(toast(page, "Member removed")).toBeVisible();
  for (const url of [storytellerPage, `${storytellerPage}?sent=true`, `/responses/${storytellerId}`, groupUrl])
    expect([url, await statusOf(ravi.page, url)]).toEqual([url, 404]);
  expect((await ravi.page.request.get(`/media/answer/${answer.id}`)).status()).toBe(404);
  await ravi.page.goto("/dashboard/timeline");
  await expect(ravi.page.getByTestId("timeline-answer")).toHaveCount(0);
  await ravi.context.close();

  // 10. The owner deletes the group (confirmed); the Storyteller and the answer stay theirs.
  await page.getByRole("link", { name: "Delete group" }).click();
  await expect(page.getByRole("heading", { name: "Are you sure you want to delete this group?" })).toBeVisible();
  await axe(page);
  await page.getByRole("button", { name: "Delete group" }).click();
  await expect(toast(page, "Group deleted")).toBeVisible();
  await expect(page.getByTestId("group-card")).toHaveCount(0);
  await expect(page.getByTestId("storyteller-card")).toContainText("Dadi");
  await axe(page);
  await page.goto(`${storytellerPage}?sent=true`);
  await expect(page.getByTestId("sent-prompt").filter({ hasText: QUESTION }).locator("audio")).toHaveAttribute(
    "src",
    `/media/answer/${answer.id}`,
  );
  expect(await answersFor(db, prompt.id)).toHaveLength(1);
});
