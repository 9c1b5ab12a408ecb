import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signCapability } from "~/services/tokens.server";
import { addDays } from "~/utils/validation";
import { silentWav } from "../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { get, outcome, post, replyErrorsOf, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import { createPrompt, createStoryteller } from "../../tests/factories";
import { action as register } from "./_public.auth.register";
import { action as newGroup } from "./dashboard.groups.new/route";
import { action as myStories } from "./dashboard.mystories/route";
import { action as recordMyStory } from "./dashboard.mystories_.record.$promptId/route";
import { action as onboarding } from "./dashboard.onboarding/route";
import { action as storytellerView, loader as storytellerPage } from "./dashboard.recipient.$id/route";
import { action as editStoryteller } from "./dashboard.recipient.$id_.edit/route";
import { action as addPrompts } from "./dashboard.recipient.$id_.prompts.new";
import { action as recordPage } from "./record.$token/route";

// Cases once reported as a 500, a bare 400 or the wrong message (decision 020), each refused with
// its own message on its field, nothing stored.
// (app/routes/bad-input.test.ts throws the same classes of input at every form.)

const database = useTestDatabase();
const context = () => makeTestContext(database, {}, { rateLimit: async () => ({ allowed: true as const }) });
afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

type User = Awaited<ReturnType<typeof signedInUser>>;
type Fields = Record<string, string | string[]>;
type Action = (args: never) => Promise<unknown>;

const run = (action: Action, request: Request, params: Record<string, string> = {}) =>
  outcome(() => (action as (args: unknown) => Promise<unknown>)({ request, context: context(), params, ...routeArgs }));
const as = (user: User, action: Action, url: string, fields: Fields, params: Record<string, string> = {}) =>
  run(action, post(user.jar, url, fields), params);

const count = async (table: "users" | "storytellers" | "prompts" | "answers" | "onboarding_drafts" | "group_drafts") =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const counts = async () => ({
  users: await count("users"),
  storytellers: await count("storytellers"),
  prompts: await count("prompts"),
  answers: await count("answers"),
  onboarding_drafts: await count("onboarding_drafts"),
  group_drafts: await count("group_drafts"),
});
const draftOf = async (userId: string) =>
  (await database.db.selectFrom("onboarding_drafts").select("data").where("user_id", "=", userId).executeTakeFirst())
    ?.data ?? null;

const today = () => new Date().toISOString().slice(0, 10);
const who = {
  nickname: "Nani",
  firstName: "Kamla",
  relationship: "",
  deliveryMethod: "email",
  email: "nani@example.com",
  phone: "",
  timeZone: "UTC",
  language: "hi",
};

/** A user whose onboarding has its first step (and, for step 3, its questions) done. */
async function onboardingAt(step: 2 | 3) {
  const user = await signedInUser(database);
  const draft = {
    who: { ...who, relationship: undefined, phone: undefined },
    prompts: { libraryPromptIds: [], customPrompts: ["What was school like?"] },
  };
  await database.db
    .insertInto("onboarding_drafts")
    .values({ user_id: user.id, data: JSON.stringify(step === 3 ? draft : { who: draft.who }) })
    .execute();
  return user;
}

describe("a NUL character in a name or a question", () => {
  it("registering: told on the first name, no account", async () => {
    const before = await counts();
    const answer = await run(
      register,
      post(new CookieJar(), "/auth/register", {
        firstName: "Asha\u0000",
        lastName: "Rao",
        nickname: "asha",
        email: "nul@example.com",
      }),
    );
    expect(answer.status).toBe(400);
    expect(replyErrorsOf(answer.data)).toEqual({ firstName: ["validation.singleLine"] });
    expect(await counts()).toEqual(before);
  });

  it("onboarding step 1: told on the nickname, no draft", async () => {
    const user = await signedInUser(database);
    const answer = await as(user, onboarding, "/dashboard/onboarding?step=1", {
      intent: "next",
      ...who,
      nickname: "Na\u0000ni",
    });
    expect(answer.status).toBe(400);
    expect(replyErrorsOf(answer.data)).toEqual({ nickname: ["validation.singleLine"] });
    expect(await draftOf(user.id)).toBeNull();
  });

  it("onboarding step 2: told on the question typed, the draft as it was", async () => {
    const user = await onboardingAt(2);
    const before = await draftOf(user.id);
    const answer = await as(user, onboarding, "/dashboard/onboarding?step=2", {
      intent: "next",
      customPrompts: "What was school like?\nWho was your\u0000 best friend?",
    });
    expect(answer.status).toBe(400);
    expect(replyErrorsOf(answer.data)).toEqual({ "customPrompts[1]": ["validation.invalidCharacters"] });
    expect(await draftOf(user.id)).toEqual(before);
  });

  it("editing a queued question: told beside its text, the question as it was", async () => {
    const user = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: user.id, prompts: ["What was your first home like?"] });
    const promptId = st.prompts[0].id;
    const answer = await as(
      user,
      storytellerView,
      `/dashboard/recipient/${st.id}?edit=${promptId}`,
      { intent: "edit", promptId, text: "Where did you\u0000 grow up?" },
      { id: st.id },
    );
    expect(answer).toMatchObject({ status: 400, data: { form: "edit", promptId } });
    expect(replyErrorsOf(answer.data)).toEqual({ text: ["validation.invalidCharacters"] });
    const row = await database.db
      .selectFrom("prompts")
      .select("text")
      .where("id", "=", promptId)
      .executeTakeFirstOrThrow();
    expect(row.text).toBe("What was your first home like?");
  });
});

describe("a library question id past PostgreSQL's integer range", () => {
  const huge = ["2147483648", "99999999999999999999"];

  it("onboarding step 2 and Add prompts: told on the questions, nothing kept", async () => {
    for (const id of huge) {
      const user = await onboardingAt(2);
      const draft = await draftOf(user.id);
      const step2 = await as(user, onboarding, "/dashboard/onboarding?step=2", {
        intent: "next",
        libraryPromptIds: [id],
        customPrompts: "",
      });
      expect(step2.status).toBe(400);
      expect(replyErrorsOf(step2.data)).toEqual({
        "libraryPromptIds[0]": ["storytellers:errors.libraryPromptUnknown"],
      });
      expect(await draftOf(user.id)).toEqual(draft);

      const st = await createStoryteller(database.db, { ownerId: user.id });
      const before = await counts();
      const added = await as(
        user,
        addPrompts,
        `/dashboard/recipient/${st.id}/prompts/new`,
        { libraryPromptIds: [id] },
        { id: st.id },
      );
      expect(added.status).toBe(400);
      expect(replyErrorsOf(added.data)).toEqual({
        "libraryPromptIds[0]": ["storytellers:errors.libraryPromptUnknown"],
      });
      expect(await counts()).toEqual(before);
    }
  });

  it("an id in range that is no library question is refused too, not silently dropped", async () => {
    const user = await onboardingAt(2);
    const answer = await as(user, onboarding, "/dashboard/onboarding?step=2", {
      intent: "next",
      libraryPromptIds: ["2147483647"],
    });
    expect(answer.status).toBe(400);
    expect(replyErrorsOf(answer.data)).toEqual({ libraryPromptIds: ["storytellers:errors.libraryPromptUnknown"] });
  });

  it("My Stories' Record a story: told on the question", async () => {
    const user = await signedInUser(database);
    const before = await counts();
    for (const id of huge) {
      const answer = await as(user, myStories, "/dashboard/mystories", {
        intent: "record-library",
        libraryPromptId: id,
      });
      expect(answer.status).toBe(400);
      expect(replyErrorsOf(answer.data)).toEqual({ libraryPromptId: ["stories:record.unknownQuestion"] });
    }
    expect(await counts()).toEqual(before);
  });

  it("a Storyteller's page at an id that is no uuid is a 404", async () => {
    const user = await signedInUser(database);
    const page = await outcome(() =>
      storytellerPage({
        request: get(user.jar, "/dashboard/recipient/99999999999999999999"),
        context: context(),
        params: { id: "99999999999999999999" },
        ...routeArgs,
      }),
    );
    expect(page.status).toBe(404);
  });
});

describe("first prompt dates", () => {
  it("30 February is a date that does not exist, wherever a first date is asked", async () => {
    const user = await onboardingAt(3);
    const step3 = await as(user, onboarding, "/dashboard/onboarding?step=3", {
      intent: "submit",
      firstPromptDate: "2027-02-30",
      frequency: "weekly",
    });
    expect(step3.status).toBe(400);
    expect(replyErrorsOf(step3.data)).toEqual({ firstPromptDate: ["validation.dateInvalid"] });

    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    const edit = await as(
      owner,
      editStoryteller,
      `/dashboard/recipient/${st.id}/edit`,
      { intent: "update", ...who, firstPromptDate: "2027-02-30", frequency: "weekly" },
      { id: st.id },
    );
    expect(edit.status).toBe(400);
    expect(replyErrorsOf(edit.data)).toEqual({ firstPromptDate: ["validation.dateInvalid"] });

    const group = await as(owner, newGroup, "/dashboard/groups/new?step=2", {
      intent: "create",
      ...who,
      firstPromptDate: "2027-02-30",
      frequency: "weekly",
    });
    expect(group).toMatchObject({ status: 400, data: { form: "create" } });
    expect(replyErrorsOf(group.data)).toEqual({ firstPromptDate: ["validation.dateInvalid"] });
  });

  it("200 years ahead is too far, in onboarding, editing and Add Group alike", async () => {
    const far = addDays(today(), 200 * 365);
    const user = await onboardingAt(3);
    const before = await counts();
    const step3 = await as(user, onboarding, "/dashboard/onboarding?step=3", {
      intent: "submit",
      firstPromptDate: far,
      frequency: "weekly",
    });
    expect(step3.status).toBe(400);
    expect(replyErrorsOf(step3.data)).toEqual({ firstPromptDate: ["storytellers:errors.dateTooFar"] });
    expect(await counts()).toEqual(before);

    const st = await createStoryteller(database.db, { ownerId: user.id });
    const edit = await as(
      user,
      editStoryteller,
      `/dashboard/recipient/${st.id}/edit`,
      { intent: "update", ...who, firstPromptDate: far, frequency: "weekly" },
      { id: st.id },
    );
    expect(replyErrorsOf(edit.data)).toEqual({ firstPromptDate: ["storytellers:errors.dateTooFar"] });

    const group = await as(user, newGroup, "/dashboard/groups/new?step=2", {
      intent: "create",
      ...who,
      firstPromptDate: far,
      frequency: "weekly",
    });
    expect(replyErrorsOf(group.data)).toEqual({ firstPromptDate: ["storytellers:errors.dateTooFar"] });

    // A year ahead is still fine.
    const yearAhead = await as(
      user,
      editStoryteller,
      `/dashboard/recipient/${st.id}/edit`,
      { intent: "update", ...who, firstPromptDate: addDays(today(), 365), frequency: "weekly" },
      { id: st.id },
    );
    expect(yearAhead.status).toBe(302);
  });

  it("editing refuses a past date onboarding refuses, but keeps a Storyteller's own past first date", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      firstPromptDate: "2026-01-01",
      timeZone: "UTC",
    });
    const url = `/dashboard/recipient/${st.id}/edit`;
    const schedule = async () =>
      database.db
        .selectFrom("schedules")
        .select(["first_prompt_date", "frequency"])
        .where("storyteller_id", "=", st.id)
        .executeTakeFirstOrThrow();

    const past = await as(
      owner,
      editStoryteller,
      url,
      { intent: "update", ...who, firstPromptDate: "2026-01-02", frequency: "weekly" },
      { id: st.id },
    );
    expect(past.status).toBe(400);
    expect(replyErrorsOf(past.data)).toEqual({ firstPromptDate: ["storytellers:errors.dateInPast"] });
    expect(await schedule()).toEqual({ first_prompt_date: "2026-01-01", frequency: "daily" });

    const unchanged = await as(
      owner,
      editStoryteller,
      url,
      { intent: "update", ...who, nickname: "Nanima", firstPromptDate: "2026-01-01", frequency: "weekly" },
      { id: st.id },
    );
    expect(unchanged.status).toBe(302);
    expect(await schedule()).toEqual({ first_prompt_date: "2026-01-01", frequency: "weekly" });
  });
});

describe("a frequency or language no form offers", () => {
  it("is told on its field, in onboarding and when editing", async () => {
    const user = await signedInUser(database);
    const step1 = await as(user, onboarding, "/dashboard/onboarding?step=1", {
      intent: "next",
      ...who,
      language: "fr",
    });
    expect(step1.status).toBe(400);
    expect(replyErrorsOf(step1.data)).toEqual({ language: ["validation.invalidChoice"] });

    const done = await onboardingAt(3);
    const step3 = await as(done, onboarding, "/dashboard/onboarding?step=3", {
      intent: "submit",
      firstPromptDate: addDays(today(), 7),
      frequency: "hourly",
    });
    expect(replyErrorsOf(step3.data)).toEqual({ frequency: ["validation.invalidChoice"] });

    const st = await createStoryteller(database.db, { ownerId: user.id });
    const before = await database.db
      .selectFrom("storytellers")
      .selectAll()
      .where("id", "=", st.id)
      .executeTakeFirstOrThrow();
    const edit = await as(
      user,
      editStoryteller,
      `/dashboard/recipient/${st.id}/edit`,
      { intent: "update", ...who, language: "xx", firstPromptDate: addDays(today(), 7), frequency: "yearly" },
      { id: st.id },
    );
    expect(edit.status).toBe(400);
    expect(replyErrorsOf(edit.data)).toEqual({
      language: ["validation.invalidChoice"],
      frequency: ["validation.invalidChoice"],
    });
    expect(
      await database.db.selectFrom("storytellers").selectAll().where("id", "=", st.id).executeTakeFirstOrThrow(),
    ).toEqual(before);
  });

  it("a missing one is still 'required'", async () => {
    const user = await signedInUser(database);
    const { language: _language, ...withoutLanguage } = who;
    const answer = await as(user, onboarding, "/dashboard/onboarding?step=1", { intent: "next", ...withoutLanguage });
    expect(replyErrorsOf(answer.data)).toEqual({ language: ["validation.required"] });
  });
});

describe("two recordings in one upload", () => {
  /** A multipart post of two "audio" files, as a hand-made form would send it. */
  async function twoFiles(url: string, cookie = "") {
    const form = new FormData();
    const wav = new Uint8Array(silentWav(1));
    form.append("audio", new Blob([wav], { type: "audio/wav" }), "one.wav");
    form.append("audio", new Blob([wav], { type: "audio/wav" }), "two.wav");
    const encoded = new Response(form);
    const body = new Uint8Array(await encoded.arrayBuffer());
    return new Request(`http://localhost:3000${url}`, {
      method: "POST",
      headers: {
        "Content-Type": encoded.headers.get("content-type")!,
        "Content-Length": String(body.byteLength),
        "Sec-Fetch-Site": "same-origin",
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body,
    });
  }

  it("are told 'one at a time', not 'choose a recording', on the record page and My Stories", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    const prompt = await createPrompt(database.db, { storytellerId: st.id, sentAt: new Date(), createdBy: owner.id });
    const token = await signCapability(context().config, "record", prompt.id);
    const before = await counts();
    const page = await run(recordPage, await twoFiles(`/record/${token}`), { token });
    expect(page).toMatchObject({ status: 400, data: { ok: false, error: "upload.oneFile" } });

    const mine = await as(owner, myStories, "/dashboard/mystories", {
      intent: "record-title",
      title: "The summer of the flood",
    });
    const promptId = mine.location!.split("/").pop()!;
    const afterStart = await counts();
    const story = await run(
      recordMyStory,
      await twoFiles(`/dashboard/mystories/record/${promptId}`, owner.jar.header()),
      { promptId },
    );
    expect(story).toMatchObject({ status: 400, data: { error: "upload.oneFile" } });
    expect(await counts()).toEqual(afterStart);
    expect(afterStart.answers).toBe(before.answers);
  });
});

describe("more of a list than any page offers", () => {
  it("is told as too many, and nothing is kept", async () => {
    const user = await signedInUser(database);
    const emails = Array.from({ length: 60 }, (_, i) => `guest${i}@example.com`);
    const invite = await as(user, newGroup, "/dashboard/groups/new?step=3", { intent: "more", emails });
    expect(invite).toMatchObject({ status: 400, data: { form: "invite" } });
    expect(replyErrorsOf(invite.data)).toEqual({ emails: ["validation.tooMany"] });

    const onboardee = await onboardingAt(2);
    const draft = await draftOf(onboardee.id);
    const ids = Array.from({ length: 501 }, (_, i) => String(i + 1));
    const picked = await as(onboardee, onboarding, "/dashboard/onboarding?step=2", {
      intent: "next",
      libraryPromptIds: ids,
    });
    expect(replyErrorsOf(picked.data)).toEqual({ libraryPromptIds: ["validation.tooMany"] });
    expect(await draftOf(onboardee.id)).toEqual(draft);
  });
});
