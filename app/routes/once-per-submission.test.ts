import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../tests/context";
import { outcome, post, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { createStoryteller } from "../../tests/factories";
import { action as newGroup } from "./dashboard.groups.new/route";
import { action as onboarding } from "./dashboard.onboarding/route";
import { action as addQuestions } from "./dashboard.recipient.$id_.prompts.new";
import { action as invite } from "./dashboard.user.new";

// Each creating form, posted twice at once with the same submission id (a double click without
// JavaScript): one row, and both answers lead to the same place.

const database = useTestDatabase();
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
type User = Awaited<ReturnType<typeof signedInUser>>;
type Action = (args: never) => Promise<unknown>;

const twice = (user: User, act: Action, path: string, fields: Record<string, string | string[]>, params = {}) =>
  Promise.all(
    [1, 2].map(() =>
      outcome(() =>
        (act as (args: unknown) => Promise<unknown>)({
          request: post(user.jar, path, fields),
          context: makeTestContext(database),
          params,
          ...routeArgs,
        }),
      ),
    ),
  );

describe("a creating form posted twice makes one thing", () => {
  it("Add Storyteller's last step: one Storyteller, one queue, one first question", async () => {
    const user = await signedInUser(database);
    const step = (n: number, fields: Record<string, string>) =>
      outcome(() =>
        onboarding({
          request: post(user.jar, `/dashboard/onboarding?step=${n}`, fields),
          context: makeTestContext(database),
          params: {},
          ...routeArgs,
        }),
      );
    await step(1, {
      intent: "next",
      nickname: "Nani",
      firstName: "Kamla",
      deliveryMethod: "email",
      email: "nani@example.com",
      timeZone: "Asia/Kolkata",
      language: "hi",
    });
    await step(2, { intent: "next", customPrompts: "What games did you play?" });
    const submissionId = randomUUID();
    const last = { intent: "submit", firstPromptDate: inAMonth, frequency: "weekly", submissionId };
    const answers = await twice(user, onboarding, "/dashboard/onboarding?step=3", last);
    expect(answers.map((a) => [a.status, a.location])).toEqual([
      [302, "/dashboard"],
      [302, "/dashboard"],
    ]);
    const made = await database.db.selectFrom("storytellers").select("id").where("owner_id", "=", user.id).execute();
    expect(made).toHaveLength(1);
    const queue = await database.db
      .selectFrom("prompts")
      .select("id")
      .where("storyteller_id", "=", made[0].id)
      .execute();
    expect(queue).toHaveLength(1);
    // The next drawing of the form has a new id: another Storyteller is another submission.
    await step(1, {
      intent: "next",
      nickname: "Nana",
      firstName: "Mohan",
      deliveryMethod: "email",
      email: "nana@example.com",
      timeZone: "Asia/Kolkata",
      language: "hi",
    });
    await step(2, { intent: "next", customPrompts: "Where did you grow up?" });
    await twice(user, onboarding, "/dashboard/onboarding?step=3", { ...last, submissionId: randomUUID() });
    expect(
      await database.db.selectFrom("storytellers").select("id").where("owner_id", "=", user.id).execute(),
    ).toHaveLength(2);
  });

  it("Add questions: the questions are queued once", async () => {
    const user = await signedInUser(database);
    const dadi = await createStoryteller(database.db, { ownerId: user.id, nickname: "Dadi", prompts: [] });
    const path = `/dashboard/recipient/${dadi.id}/prompts/new`;
    const fields = { customPrompts: "What games did you play?\nWhere did you grow up?", submissionId: randomUUID() };
    const answers = await twice(user, addQuestions, path, fields, { id: dadi.id });
    expect(answers.map((a) => [a.status, a.location])).toEqual([
      [302, `/dashboard/recipient/${dadi.id}`],
      [302, `/dashboard/recipient/${dadi.id}`],
    ]);
    const queue = await database.db
      .selectFrom("prompts")
      .select("text")
      .where("storyteller_id", "=", dadi.id)
      .execute();
    expect(queue).toHaveLength(2);
  });

  it("Add Group's last step: one group, each address invited once", async () => {
    const user = await signedInUser(database);
    const nani = await createStoryteller(database.db, { ownerId: user.id, nickname: "Nani" });
    const step = (n: number, fields: Record<string, string>) =>
      outcome(() =>
        newGroup({
          request: post(user.jar, `/dashboard/groups/new?step=${n}`, fields),
          context: makeTestContext(database),
          params: {},
          ...routeArgs,
        }),
      );
    await step(1, { intent: "next", name: "Nani's circle", description: "Stories from Nani" });
    await step(2, { intent: "pick", storytellerId: nani.id });
    const last = { intent: "submit", "emails[0]": "ravi@example.com", submissionId: randomUUID() };
    const answers = await twice(user, newGroup, "/dashboard/groups/new?step=3", last);
    const groups = await database.db.selectFrom("groups").select("id").where("owner_id", "=", user.id).execute();
    expect(groups).toHaveLength(1);
    expect(answers.map((a) => [a.status, a.location])).toEqual([
      [302, `/dashboard/groups/${groups[0].id}`],
      [302, `/dashboard/groups/${groups[0].id}`],
    ]);
    const invited = await database.db
      .selectFrom("group_invitations")
      .select("id")
      .where("email", "=", "ravi@example.com")
      .execute();
    expect(invited).toHaveLength(1);
  });

  it("Invite someone: one invitation, one email", async () => {
    const user = await signedInUser(database);
    const fields = { email: "meera@example.com", submissionId: randomUUID() };
    const answers = await twice(user, invite, "/dashboard/user/new", fields);
    expect(answers.map((a) => [a.status, a.location])).toEqual([
      [302, "/dashboard/user/new"],
      [302, "/dashboard/user/new"],
    ]);
    const invitations = await database.db
      .selectFrom("user_invitations")
      .select("id")
      .where("email", "=", "meera@example.com")
      .execute();
    expect(invitations).toHaveLength(1);
    const emails = await database.db
      .selectFrom("outbox_messages")
      .select("id")
      .where("to_address", "=", "meera@example.com")
      .execute();
    expect(emails).toHaveLength(1);
  });
});
