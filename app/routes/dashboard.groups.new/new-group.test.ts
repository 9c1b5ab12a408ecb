import { readFile } from "node:fs/promises";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_INVITATIONS_PER_POST } from "~/utils/group-schema";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { get, outcome, post, replyErrorsOf, signedInUser, toastKeysOf } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createSelfStoryteller, createStoryteller } from "../../../tests/factories";
import { allowConsoleErrors } from "../../../tests/setup/fail-on-console-error";
import { action, loader } from "./route";

// First prompt dates are at most a year ahead (firstPromptDateProblem).
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

// The outbox is real, except when a test makes an invitation's email fail.
const outbox = vi.hoisted(() => ({ fail: false }));
vi.mock("~/services/outbox.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/services/outbox.server")>();
  return {
    ...real,
    queueEmail: (...args: Parameters<typeof real.queueEmail>) => {
      if (outbox.fail) throw new Error("mail queue down");
      return real.queueEmail(...args);
    },
  };
});
beforeEach(() => {
  outbox.fail = false;
});

const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;
const submit = (user: User, step: number, fields: Record<string, string | string[]>, query = "") =>
  outcome(() =>
    action({
      request: post(user.jar, `/dashboard/groups/new?step=${step}${query}`, fields),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    }),
  );
const page = (user: User, step: number) =>
  outcome(() =>
    loader({
      request: get(user.jar, `/dashboard/groups/new?step=${step}`),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    }),
  );
const emailOf = async (user: User) =>
  (await database.db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow()).email;
const groupsOf = (user: User) => database.db.selectFrom("groups").selectAll().where("owner_id", "=", user.id).execute();

const newStoryteller = {
  intent: "create",
  nickname: "Dadi",
  firstName: "Savitri",
  deliveryMethod: "email",
  email: "savitri.new-group@example.com",
  timeZone: "Asia/Kolkata",
  language: "hi",
  firstPromptDate: inAMonth,
  frequency: "weekly",
};

describe("Add Group, step by step without JavaScript", () => {
  it("refuses a name or description too short or too long, with the translated messages' keys", async () => {
    const user = await signedInUser(database);
    const short = await submit(user, 1, { intent: "next", name: "A", description: "Too few" });
    expect(short.status).toBe(400);
    expect(replyErrorsOf(short.data)).toEqual({ name: ["validation.tooShort"], description: ["validation.tooShort"] });
    const long = await submit(user, 1, { intent: "next", name: "N".repeat(51), description: "D".repeat(61) });
    expect(replyErrorsOf(long.data)).toEqual({ name: ["validation.tooLong"], description: ["validation.tooLong"] });
    const missing = await submit(user, 1, { intent: "next" });
    expect(replyErrorsOf(missing.data)).toEqual({
      name: ["validation.required"],
      description: ["validation.required"],
    });
    expect(await groupsOf(user)).toEqual([]);
  });

  it("refuses a NUL or other control character on the field, never a failed insert, and 10 KB as too long", async () => {
    const user = await signedInUser(database);
    const refused = await submit(user, 1, {
      intent: "next",
      name: "Nani\u0000s",
      description: "The cousins\u0007 of Pune",
    });
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({
      name: ["validation.singleLine"],
      description: ["validation.invalidCharacters"],
    });
    const huge = await submit(user, 1, {
      intent: "next",
      name: "x".repeat(10_000),
      description: "Line one\nline two ok",
    });
    expect(replyErrorsOf(huge.data)).toEqual({ name: ["validation.tooLong"] });
    expect(await groupsOf(user)).toEqual([]);
  });

  it("offers only the user's own Storytellers (no is_self row); any other is a 404", async () => {
    const user = await signedInUser(database);
    const other = await signedInUser(database);
    const mine = await createStoryteller(database.db, { ownerId: user.id, nickname: "Nani" });
    const self = await createSelfStoryteller(database.db, {
      id: user.id,
      email: await emailOf(user),
      first_name: "Asha",
    });
    const theirs = await createStoryteller(database.db, { ownerId: other.id });
    const shown = await page(user, 2);
    expect((shown.data as { storytellers: { id: string }[] }).storytellers.map((s) => s.id)).toEqual([mine.id]);
    for (const storytellerId of [self.id, theirs.id]) {
      expect((await submit(user, 2, { intent: "pick", storytellerId })).status).toBe(404);
    }
  });

  it("checks a new Storyteller with onboarding's rules", async () => {
    const user = await signedInUser(database);
    const refused = await submit(user, 2, {
      ...newStoryteller,
      email: "",
      phone: "+44 7400 123456",
      deliveryMethod: "sms",
    });
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({
      phone: ["storytellers:errors.smsOnlyUsCaMobile", "storytellers:errors.numberCan.whatsapp"],
    });
    const past = await submit(user, 2, { ...newStoryteller, firstPromptDate: "2020-01-01" });
    expect(replyErrorsOf(past.data)).toEqual({ firstPromptDate: ["storytellers:errors.dateInPast"] });
  });

  it("refuses a bad address, the same address twice, or the user's own, beside each one", async () => {
    const user = await signedInUser(database);
    const own = (await emailOf(user)).toUpperCase();
    const refused = await submit(user, 3, {
      intent: "submit",
      "emails[0]": "not-an-address",
      "emails[1]": "ravi@example.com",
      "emails[2]": "RAVI@example.com",
      "emails[3]": "",
    });
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({
      "emails[0]": ["validation.emailInvalid"],
      "emails[2]": ["groups:errors.duplicateEmail"],
    });
    const mine = await submit(user, 3, { intent: "submit", "emails[0]": "ravi@example.com", "emails[1]": own });
    expect(replyErrorsOf(mine.data)).toEqual({ "emails[1]": ["groups:errors.ownEmail"] });
    expect(await groupsOf(user)).toEqual([]);
  });

  it(`invites at most ${MAX_INVITATIONS_PER_POST} addresses a post, with its own message, and writes nothing past it`, async () => {
    const user = await signedInUser(database);
    await submit(user, 1, { intent: "next", name: "A big family", description: "Everyone, all at once" });
    await submit(user, 2, newStoryteller);
    const slots = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`emails[${i}]`, `cousin${i}.cap@example.com`]));

    // One past the cap, blank slots aside: refused on the list, in either button, nothing kept or sent.
    for (const intent of ["submit", "more"]) {
      const refused = await submit(user, 3, { intent, ...slots(MAX_INVITATIONS_PER_POST + 1), "emails[30]": "" });
      expect(refused.status).toBe(400);
      expect(replyErrorsOf(refused.data)).toEqual({ emails: ["groups:errors.tooManyInvitations"] });
    }
    // At the cap, another slot is refused too (it could only take the post past it).
    const more = await submit(user, 3, { intent: "more", ...slots(MAX_INVITATIONS_PER_POST) });
    expect(replyErrorsOf(more.data)).toEqual({ emails: ["groups:errors.tooManyInvitations"] });
    expect(await groupsOf(user)).toEqual([]);
    expect(((await page(user, 3)).data as { draft: { emails?: string[] } }).draft.emails).toBeUndefined();
    expect(
      await database.db
        .selectFrom("outbox_messages")
        .select("id")
        .where("to_address", "like", "%.cap@example.com")
        .execute(),
    ).toEqual([]);

    // Exactly the cap is made, every one invited.
    const done = await submit(user, 3, { intent: "submit", ...slots(MAX_INVITATIONS_PER_POST) });
    const [group] = await groupsOf(user);
    expect(done).toMatchObject({ status: 302, location: `/dashboard/groups/${group.id}` });
    const invited = await database.db
      .selectFrom("group_invitations")
      .select("email")
      .where("group_id", "=", group.id)
      .execute();
    expect(invited).toHaveLength(MAX_INVITATIONS_PER_POST);
  });

  it("has the cap's message in English and Hindi, naming the same number", async () => {
    for (const language of ["en", "hi"]) {
      const { errors } = JSON.parse(await readFile(`locales/${language}/groups.json`, "utf8")) as {
        errors: Record<string, string>;
      };
      expect(errors.tooManyInvitations).toContain(String(MAX_INVITATIONS_PER_POST));
    }
  });

  it("keeps each step, adds address slots, and creates the group with its new Storyteller and invitations", async () => {
    const user = await signedInUser(database);
    expect(
      await submit(user, 1, { intent: "next", name: "Dadi's circle", description: "Stories from Dadi" }),
    ).toMatchObject({
      status: 302,
      location: "/dashboard/groups/new?step=2",
    });
    expect(await submit(user, 2, newStoryteller)).toMatchObject({
      status: 302,
      location: "/dashboard/groups/new?step=3",
    });
    expect(await submit(user, 3, { intent: "more", "emails[0]": "first.new-group@example.com" })).toMatchObject({
      status: 302,
      location: "/dashboard/groups/new?step=3&more=1",
    });
    const kept = await page(user, 3);
    expect((kept.data as { draft: unknown }).draft).toMatchObject({
      details: { name: "Dadi's circle" },
      storyteller: { newStoryteller: { nickname: "Dadi" } },
      emails: ["first.new-group@example.com"],
    });
    expect(await submit(user, 3, { intent: "back" })).toMatchObject({ location: "/dashboard/groups/new?step=2" });

    const done = await submit(user, 3, {
      intent: "submit",
      "emails[0]": "first.new-group@example.com",
      "emails[1]": "second.new-group@example.com",
      "emails[2]": "",
    });
    const [group] = await groupsOf(user);
    expect(done).toMatchObject({ status: 302, location: `/dashboard/groups/${group.id}` });
    expect(group).toMatchObject({ name: "Dadi's circle", description: "Stories from Dadi" });
    const storyteller = await database.db
      .selectFrom("storytellers")
      .select(["nickname", "owner_id"])
      .where("id", "=", group.storyteller_id)
      .executeTakeFirstOrThrow();
    expect(storyteller).toEqual({ nickname: "Dadi", owner_id: user.id });
    const invited = await database.db
      .selectFrom("group_invitations")
      .select("email")
      .where("group_id", "=", group.id)
      .orderBy("email")
      .execute();
    expect(invited.map((i) => i.email)).toEqual(["first.new-group@example.com", "second.new-group@example.com"]);
    expect((await page(user, 1)).data).toMatchObject({ draft: {} });
  });

  it("answers the dialog's posts with the next step instead of a redirect, until the group is made", async () => {
    const user = await signedInUser(database);
    const mine = await createStoryteller(database.db, { ownerId: user.id, nickname: "Nani" });
    const dialog = (step: number, fields: Record<string, string>) => submit(user, step, fields, "&dialog=1");
    type Reply = { page: { step: number; storytellers: { id: string }[]; extraSlots: number }; form?: string };

    const refused = await dialog(1, { intent: "next", name: "A", description: "Stories from Nani" });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ page: { step: 1 }, form: "details" });
    expect(replyErrorsOf(refused.data)).toEqual({ name: ["validation.tooShort"] });

    const second = await dialog(1, { intent: "next", name: "Nani's circle", description: "Stories from Nani" });
    expect(second.status).toBe(200);
    expect((second.data as Reply).page).toMatchObject({ step: 2, storytellers: [{ id: mine.id }] });
    expect((await dialog(2, { intent: "pick", storytellerId: mine.id })).data).toMatchObject({ page: { step: 3 } });
    expect((await dialog(3, { intent: "more", "emails[0]": "dialog.one@example.com" })).data).toMatchObject({
      page: { step: 3, extraSlots: 2, draft: { emails: ["dialog.one@example.com"] } },
    });
    expect((await dialog(3, { intent: "back" })).data).toMatchObject({ page: { step: 2 } });

    const done = await dialog(3, { intent: "submit", "emails[0]": "dialog.one@example.com" });
    const [group] = await groupsOf(user);
    expect(done).toMatchObject({ status: 302, location: `/dashboard/groups/${group.id}` });
    expect(group).toMatchObject({ name: "Nani's circle", storyteller_id: mine.id });
  });

  it('says "Group created successfully", or "Group couldn\'t be created" having written nothing', async () => {
    const user = await signedInUser(database);
    const mine = await createStoryteller(database.db, { ownerId: user.id });
    const create = () =>
      toastKeysOf(
        () =>
          action({
            request: post(user.jar, "/dashboard/groups/new?step=3", {
              intent: "submit",
              "emails[0]": "toast.invitee@example.com",
            }),
            context: makeTestContext(database),
            params: {},
            ...routeArgs,
          }),
        makeTestContext(database).config,
      );
    await submit(user, 1, { intent: "next", name: "Toasted", description: "A group with a toast" });
    await submit(user, 2, { intent: "pick", storytellerId: mine.id });

    outbox.fail = true;
    allowConsoleErrors(1);
    expect(await create()).toEqual(["groups:toast.notCreated"]);
    expect(await groupsOf(user)).toEqual([]);
    expect(
      await database.db
        .selectFrom("group_invitations")
        .select("id")
        .where("email", "=", "toast.invitee@example.com")
        .execute(),
    ).toEqual([]);
    expect((await page(user, 3)).data).toMatchObject({ draft: { details: { name: "Toasted" } } });

    outbox.fail = false;
    expect(await create()).toEqual(["groups:toast.created"]);
    expect(await groupsOf(user)).toHaveLength(1);
  });

  it("sends someone signed out to sign in", async () => {
    const user = await signedInUser(database);
    user.jar = new (user.jar.constructor as new () => typeof user.jar)();
    expect(await page(user, 1)).toMatchObject({ status: 302 });
  });
});
