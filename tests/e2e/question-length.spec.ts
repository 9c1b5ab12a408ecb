import { createStoryteller } from "../factories";
import { expect, expectNoAxeViolations, signInAsNewUser, test } from "./fixtures";

// A question past 300 characters is never cut short as it is typed: the server refuses it with the
// limit and the count, beside the box and naming the line, and what he typed stays there to shorten.

// A refused post is answered with a 400, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 400/], viewport: { width: 360, height: 740 } });

const LONG =
  `Tell me about the house you grew up in, ${"and the courtyard where we played ".repeat(9)}`.slice(0, 311) + "?";

const words = {
  en: {
    box: "Your own questions",
    add: "Add to the queue",
    lineLong: "Question 2 is too long — 312 of 300 characters",
    lineShort: "Question 3 is too short — 3 of at least 5 characters",
    edit: "Edit this question",
    save: "Save",
    long: "Too long — 312 of 300 characters",
  },
  hi: {
    box: "आपके अपने सवाल",
    add: "कतार में जोड़ें",
    lineLong: "सवाल 2 बहुत लंबा है — 312 अक्षर, जबकि ज़्यादा से ज़्यादा 300 हो सकते हैं",
    lineShort: "सवाल 3 बहुत छोटा है — 3 अक्षर, जबकि कम से कम 5 चाहिए",
    edit: "यह सवाल बदलें",
    save: "सहेजें",
    long: "बहुत लंबा है — 312 अक्षर, जबकि ज़्यादा से ज़्यादा 300 हो सकते हैं",
  },
} as const;

for (const language of ["en", "hi"] as const) {
  const say = words[language];
  test(`his own questions past the limit (${language}): each refused by its line under the box, what he typed kept`, async ({
    page,
    context,
    db,
    baseURL,
  }) => {
    const user = await signInAsNewUser(db, context, baseURL!, "Aman");
    await db.updateTable("users").set({ language }).where("id", "=", user.id).execute();
    const dadi = await createStoryteller(db, {
      ownerId: user.id,
      nickname: "Dadi",
      language: "hi",
      prompts: ["What did you cook for Diwali?"],
    });

    // Add questions: three lines, the second 312 characters, the third three.
    await page.goto(`/dashboard/recipient/${dadi.id}/prompts/new`);
    const box = page.getByLabel(say.box);
    const typed = `What songs did you sing at weddings?\n${LONG}\nWhy`;
    await box.fill(typed);
    // Not cut as he types: the box takes all 312 characters.
    await expect(box).not.toHaveAttribute("maxlength");
    await expect(box).toHaveValue(typed);
    await page.getByRole("button", { name: say.add }).click();
    await expect(page.getByText(say.lineLong)).toBeVisible();
    await expect(page.getByText(say.lineShort)).toBeVisible();
    // Beside the box and tied to it, in the order typed; the box keeps every line to edit.
    await expect(box).toHaveAttribute("aria-invalid", "true");
    await expect(box).toHaveAccessibleDescription(new RegExp(`${say.lineLong}.*${say.lineShort}`));
    await expect(box).toHaveValue(typed);
    await expectNoAxeViolations(page);
    expect(await db.selectFrom("prompts").select("text").where("storyteller_id", "=", dadi.id).execute()).toHaveLength(
      1,
    );

    // Editing a queued question: the same limit, said with its count, what he typed kept.
    const queued = await db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", dadi.id)
      .executeTakeFirstOrThrow();
    await page.goto(`/dashboard/recipient/${dadi.id}?edit=${queued.id}`);
    const edit = page.getByLabel(say.edit);
    await expect(edit).not.toHaveAttribute("maxlength");
    await edit.fill(LONG);
    await expect(edit).toHaveValue(LONG);
    await page.getByRole("button", { name: say.save }).click();
    await expect(page.getByText(say.long)).toBeVisible();
    await expect(page.getByLabel(say.edit)).toHaveValue(LONG);
    await expect(page.getByLabel(say.edit)).toHaveAccessibleDescription(say.long);
    expect(
      (await db.selectFrom("prompts").select("text").where("id", "=", queued.id).executeTakeFirstOrThrow()).text,
    ).toBe("What did you cook for Diwali?");
  });
}

test("a story's own title past the limit is refused with its count, and kept", async ({
  page,
  context,
  db,
  baseURL,
}) => {
  await signInAsNewUser(db, context, baseURL!, "Kamla");
  await page.goto("/dashboard/mystories");
  const title = page.getByLabel("Title of your story");
  await expect(title).not.toHaveAttribute("maxlength");
  await title.fill(LONG);
  await page.getByRole("button", { name: "Record my story" }).click();
  await expect(page.getByText("Too long — 312 of 300 characters")).toBeVisible();
  await expect(page.getByLabel("Title of your story")).toHaveValue(LONG);
});
