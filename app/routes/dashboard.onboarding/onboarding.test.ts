import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { outcome, post, replyErrorsOf, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { action } from "./route";

// First prompt dates are at most a year ahead (firstPromptDateProblem).
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;
const submit = (user: User, step: number, fields: Record<string, string | string[]>) =>
  outcome(() =>
    action({
      request: post(user.jar, `/dashboard/onboarding?step=${step}`, fields),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    }),
  );
const draftOf = async (user: User) =>
  (await database.db.selectFrom("onboarding_drafts").select("data").where("user_id", "=", user.id).executeTakeFirst())
    ?.data ?? null;
const storytellersOf = (user: User) =>
  database.db.selectFrom("storytellers").selectAll().where("owner_id", "=", user.id).execute();

const who = {
  intent: "next",
  nickname: "Dadaji",
  firstName: "Ramesh",
  deliveryMethod: "sms",
  phone: "(416) 555-0199",
  timeZone: "America/Toronto",
  language: "hi",
};

describe("adding a Storyteller, step by step", () => {
  it("refuses a text to a number outside the US and Canada, and an unknown time zone, beside those fields, keeping nothing", async () => {
    const user = await signedInUser(database);
    const refused = await submit(user, 1, { ...who, phone: "+44 7400 123456", timeZone: "Mars/Olympus_Mons" });
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({
      phone: ["storytellers:errors.smsOnlyUsCaMobile", "storytellers:errors.numberCan.whatsapp"],
      timeZone: ["storytellers:errors.timeZoneInvalid"],
    });
    expect(await draftOf(user)).toBeNull();
  });

  it("takes a plain post whose time-zone search changed (Enter in the search box) as that search, keeping nothing", async () => {
    const user = await signedInUser(database);
    const searched = await submit(user, 1, { ...who, timeZone: "America/New_York", zoneQuery: "India" });
    expect(searched.status).toBe(400);
    const { result } = searched.data as { result: { initialValue: Record<string, string>; error?: object } };
    // The page comes back with everything typed (the form chooses the one place found) and no errors.
    expect(result.initialValue).toMatchObject({ nickname: "Dadaji", phone: "(416) 555-0199", zoneQuery: "India" });
    expect(Object.values(result.error ?? {}).filter(Boolean)).toEqual([]);
    expect(await draftOf(user)).toBeNull();
    // Next, with that search shown, goes on.
    const next = await submit(user, 1, {
      ...who,
      timeZone: "Asia/Kolkata",
      zoneQuery: "India",
      zoneQueryShown: "India",
    });
    expect(next).toMatchObject({ status: 302, location: "/dashboard/onboarding?step=2" });
    expect(await draftOf(user)).toMatchObject({ who: { timeZone: "Asia/Kolkata" } });
  });

  it("refuses a post with no step intent, or another one, with a 400 and keeps nothing", async () => {
    const user = await signedInUser(database);
    for (const intent of [undefined, "submit", "delete-everything"]) {
      const { intent: _, ...fields } = who;
      expect((await submit(user, 1, intent ? { ...fields, intent } : fields)).status).toBe(400);
    }
    expect(await draftOf(user)).toBeNull();
  });

  it("keeps each step, goes back without checking, and creates the Storyteller, their queue and the consent text at the end", async () => {
    const user = await signedInUser(database);
    expect(await submit(user, 1, who)).toMatchObject({ status: 302, location: "/dashboard/onboarding?step=2" });
    expect(await draftOf(user)).toMatchObject({ who: { nickname: "Dadaji", phone: "(416) 555-0199" } });

    const library = await database.db
      .selectFrom("library_prompts")
      .select(["id", "text_hi"])
      .orderBy("category_id")
      .orderBy("position")
      .limit(2)
      .execute();
    const prompts = {
      intent: "next",
      libraryPromptIds: library.map((p) => String(p.id)),
      customPrompts: "What games did you play?\nwhat games did you play?",
    };
    expect(await submit(user, 2, prompts)).toMatchObject({ status: 302, location: "/dashboard/onboarding?step=3" });
    expect(await submit(user, 3, { intent: "back", firstPromptDate: "not a date" })).toMatchObject({
      status: 302,
      location: "/dashboard/onboarding?step=2",
    });

    const past = await submit(user, 3, { intent: "submit", firstPromptDate: "2020-01-01", frequency: "weekly" });
    expect(past.status).toBe(400);
    expect(replyErrorsOf(past.data)).toEqual({ firstPromptDate: ["storytellers:errors.dateInPast"] });
    expect(await storytellersOf(user)).toEqual([]);

    expect(await submit(user, 3, { intent: "submit", firstPromptDate: inAMonth, frequency: "weekly" })).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    const [storyteller] = await storytellersOf(user);
    expect(storyteller).toMatchObject({
      nickname: "Dadaji",
      delivery_method: "sms",
      phone_e164: "+14165550199",
      language: "hi",
      sms_consent: "requested",
    });
    const queue = await database.db
      .selectFrom("prompts")
      .select("text")
      .where("storyteller_id", "=", storyteller.id)
      .orderBy("queue_position")
      .execute();
    expect(queue.map((p) => p.text)).toEqual([library[0].text_hi, library[1].text_hi, "What games did you play?"]);
    expect(
      await database.db.selectFrom("outbox_messages").select("id").where("to_address", "=", "+14165550199").execute(),
    ).toHaveLength(1);
    expect(await draftOf(user)).toBeNull();
  });
});
