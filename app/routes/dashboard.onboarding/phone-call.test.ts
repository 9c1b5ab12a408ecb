import { describe, expect, it } from "vitest";
import { getServerT } from "~/i18n/i18next.server";
import { handleInboundSms } from "~/models/sms-consent.server";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { outcome, post, replyErrorsOf, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createStoryteller } from "../../../tests/factories";
import { action as newGroupAction } from "../dashboard.groups.new/route";
import { action as editAction } from "../dashboard.recipient.$id_.edit/route";
import { action } from "./route";

// "Phone call" as a delivery method (decision 027), in onboarding and editing: US and Canadian
// numbers only, and the owner's word that the Storyteller agreed to be called, recorded with time.

const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const database = useTestDatabase();

type User = Awaited<ReturnType<typeof signedInUser>>;
const submit = (user: User, step: number, fields: Record<string, string>, env: Record<string, string> = {}) =>
  outcome(() =>
    action({
      request: post(user.jar, `/dashboard/onboarding?step=${step}`, fields),
      context: makeTestContext(database, env),
      params: {},
      ...routeArgs,
    }),
  );
const edit = (user: User, id: string, fields: Record<string, string>) =>
  outcome(() =>
    editAction({
      request: post(user.jar, `/dashboard/recipient/${id}/edit`, fields),
      context: makeTestContext(database),
      params: { id },
      ...routeArgs,
    }),
  );
const draftOf = async (user: User) =>
  (await database.db.selectFrom("onboarding_drafts").select("data").where("user_id", "=", user.id).executeTakeFirst())
    ?.data ?? null;
const consentsOf = (storytellerId: string) =>
  database.db
    .selectFrom("call_consents")
    .select(["status", "source", "statement", "given_by", "phone_e164", "created_at"])
    .where("storyteller_id", "=", storytellerId)
    .orderBy("created_at")
    .execute();

const who = {
  intent: "next",
  nickname: "Dadaji",
  firstName: "Ramesh",
  deliveryMethod: "call",
  phone: "(416) 555-0199",
  callConsent: "on",
  timeZone: "America/Toronto",
  language: "hi",
};

/** Each message key reads as a sentence in English and in Hindi (Devanagari), not as the key. */
async function translated(keys: string[]) {
  const config = makeTestContext(database).config;
  const en = await getServerT("en", { config });
  const hi = await getServerT("hi", { config });
  return keys.map((key) => {
    const [english, hindi] = [en(key), hi(key)];
    expect(english).not.toBe(key);
    expect(hindi).toMatch(/[\u0900-\u097F]/);
    return english;
  });
}

describe("Phone call in onboarding", () => {
  it("refuses a number of a country with no phone line, saying what it can get, in English and Hindi, keeping nothing", async () => {
    const user = await signedInUser(database);
    const refused = await submit(user, 1, { ...who, phone: "+44 7400 123456" });
    expect(refused.status).toBe(400);
    const errors = replyErrorsOf(refused.data)!;
    expect(errors).toEqual({
      phone: ["storytellers:errors.noLineInCountry", "storytellers:errors.numberCan.whatsapp"],
    });
    expect(await translated(errors.phone!)).toEqual([
      "Heirloom has no phone line in this number's country yet, so it cannot call it.",
      "This number can get WhatsApp messages.",
    ]);
    expect(await draftOf(user)).toBeNull();
  });

  it("asks for the owner's word that the Storyteller agreed to be called, and for a number", async () => {
    const user = await signedInUser(database);
    const { callConsent: _, ...noConsent } = who;
    const refused = await submit(user, 1, { ...noConsent, phone: "" });
    expect(refused.status).toBe(400);
    const errors = replyErrorsOf(refused.data)!;
    expect(errors).toEqual({
      phone: ["storytellers:errors.callPhoneRequired"],
      callConsent: ["storytellers:errors.callConsentRequired"],
    });
    expect(await translated([...errors.phone!, ...errors.callConsent!])).toEqual([
      "A phone number is required for phone calls",
      "Please confirm that they agreed to be called",
    ]);
    // Texts need no box: their consent is the Storyteller's own YES.
    expect(await submit(user, 1, { ...noConsent, deliveryMethod: "sms" })).toMatchObject({ status: 302 });
  });

  it("is refused where answering by phone is off (Twilio without a voice number)", async () => {
    const user = await signedInUser(database);
    const noVoice = {
      TWILIO_ACCOUNT_SID: "AC" + "3".repeat(32),
      TWILIO_AUTH_TOKEN: "token-without-voice-123",
      TWILIO_FROM_NUMBER: "+15555550100",
    };
    const refused = await submit(user, 1, who, noVoice);
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({ deliveryMethod: ["storytellers:errors.callsUnavailable"] });
    await translated(["storytellers:errors.callsUnavailable"]);
  });

  it("creates a Storyteller who is called, with the owner's consent on record and no consent text", async () => {
    const user = await signedInUser(database, { language: "hi" });
    expect(await submit(user, 1, who)).toMatchObject({ status: 302, location: "/dashboard/onboarding?step=2" });
    expect(await submit(user, 2, { intent: "next", customPrompts: "What songs did your mother sing?" })).toMatchObject({
      status: 302,
    });
    expect(await submit(user, 3, { intent: "submit", firstPromptDate: inAMonth, frequency: "weekly" })).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    const storyteller = await database.db
      .selectFrom("storytellers")
      .selectAll()
      .where("owner_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(storyteller).toMatchObject({
      delivery_method: "call",
      phone_e164: "+14165550199",
      call_consent: "granted",
      sms_consent: "none",
    });
    const [consent] = await consentsOf(storyteller.id);
    const hi = await getServerT("hi", { config: makeTestContext(database).config }, "storytellers");
    // The sentence the owner ticked, in the language they saw it in, with who and when.
    expect(consent).toMatchObject({
      status: "granted",
      source: "owner",
      given_by: user.id,
      phone_e164: "+14165550199",
      statement: hi("fields.callConsent"),
    });
    expect(consent.created_at).toBeInstanceOf(Date);
    expect(await database.db.selectFrom("outbox_messages").select("id").execute()).toEqual([]);
  });
});

describe("Phone call when editing a Storyteller", () => {
  const form = {
    intent: "update",
    nickname: "Nanaji",
    firstName: "Ramesh",
    deliveryMethod: "call",
    phone: "416 555 0199",
    callConsent: "on",
    email: "",
    timeZone: "America/Toronto",
    language: "en",
    firstPromptDate: inAMonth,
    frequency: "weekly",
  };

  it("switches to calls with the box ticked and records the consent once; an opt-out is the number's to lift", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    const { callConsent: _, ...unticked } = form;
    const refused = await edit(owner, st.id, unticked);
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({ callConsent: ["storytellers:errors.callConsentRequired"] });

    expect(await edit(owner, st.id, form)).toMatchObject({ status: 302 });
    expect(await edit(owner, st.id, { ...form, nickname: "Nana" })).toMatchObject({ status: 302 });
    expect((await consentsOf(st.id)).map((c) => c.status)).toEqual(["granted"]);

    // They texted STOP: calls stop too. The owner's edits still save, and their tick does not lift it.
    const config = makeTestContext(database).config;
    await handleInboundSms(database.db, config, { from: "+14165550199", body: "STOP" });
    const row = () =>
      database.db.selectFrom("storytellers").select("call_consent").where("id", "=", st.id).executeTakeFirstOrThrow();
    expect(await row()).toEqual({ call_consent: "revoked" });
    expect(await edit(owner, st.id, { ...form, nickname: "Nani" })).toMatchObject({ status: 302 });
    expect(await row()).toEqual({ call_consent: "revoked" });
    // Another account adding the same number and ticking the box does not lift it either.
    const other = await signedInUser(database);
    const second = await createStoryteller(database.db, { ownerId: other.id });
    expect(await edit(other, second.id, form)).toMatchObject({ status: 302 });
    expect(
      await database.db
        .selectFrom("storytellers")
        .select("call_consent")
        .where("id", "=", second.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ call_consent: "revoked" });

    // START from the number itself lets calls resume.
    await handleInboundSms(database.db, config, { from: "+14165550199", body: "START" });
    expect(await row()).toEqual({ call_consent: "granted" });
    expect((await consentsOf(st.id)).map((c) => [c.status, c.source])).toEqual([
      ["granted", "owner"],
      ["revoked", "text"],
      ["granted", "text"],
    ]);
  });

  it("refuses a number of a country with no phone line for calls", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, { ownerId: owner.id });
    const refused = await edit(owner, st.id, { ...form, phone: "+91 98765 43210" });
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({
      phone: ["storytellers:errors.noLineInCountry", "storytellers:errors.numberCan.whatsapp"],
    });
    expect(
      await database.db.selectFrom("storytellers").select("delivery_method").where("id", "=", st.id).execute(),
    ).toEqual([{ delivery_method: "email" }]);
  });
});

describe("Phone call for a new Storyteller in Add Group", () => {
  const addGroup = (user: User, step: number, fields: Record<string, string>) =>
    outcome(() =>
      newGroupAction({
        request: post(user.jar, `/dashboard/groups/new?step=${step}`, fields),
        context: makeTestContext(database),
        params: {},
        ...routeArgs,
      }),
    );
  const newStoryteller = {
    intent: "create",
    nickname: "Dadi",
    firstName: "Savitri",
    deliveryMethod: "call",
    phone: "(416) 555-0177",
    timeZone: "America/Toronto",
    language: "hi",
    firstPromptDate: inAMonth,
    frequency: "weekly",
  };

  it("asks for the consent, and creates the Storyteller with it on record", async () => {
    const user = await signedInUser(database);
    await addGroup(user, 1, { intent: "next", name: "Dadi's stories", description: "The whole family asks" });
    const refused = await addGroup(user, 2, newStoryteller);
    expect(refused.status).toBe(400);
    expect(replyErrorsOf(refused.data)).toEqual({ callConsent: ["storytellers:errors.callConsentRequired"] });
    expect(await addGroup(user, 2, { ...newStoryteller, callConsent: "on" })).toMatchObject({ status: 302 });
    expect(await addGroup(user, 3, { intent: "submit" })).toMatchObject({ status: 302 });
    const storyteller = await database.db
      .selectFrom("storytellers")
      .select(["id", "delivery_method", "call_consent"])
      .where("owner_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(storyteller).toMatchObject({ delivery_method: "call", call_consent: "granted" });
    expect((await consentsOf(storyteller.id)).map((c) => [c.status, c.given_by])).toEqual([["granted", user.id]]);
  });
});
