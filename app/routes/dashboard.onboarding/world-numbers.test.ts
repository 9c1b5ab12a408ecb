import { describe, expect, it } from "vitest";
import { getServerT } from "~/i18n/i18next.server";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { outcome, post, replyErrorsOf, signedInUser } from "../../../tests/dashboard-routes";
import { useTestDatabase } from "../../../tests/db";
import { createStoryteller } from "../../../tests/factories";
import { loader as editLoader } from "../dashboard.recipient.$id_.edit/route";
import { action, loader } from "./route";

// Adding a Storyteller with a number of any country (decisions 043, 044): each
// method only where it can work, the refusal naming what the number can get, in English and Hindi;
// the method's fields shown again by a plain post that keeps nothing.

const database = useTestDatabase();
const INDIA = { TWILIO_VOICE_NUMBERS: "IN=+911123456789" };

type User = Awaited<ReturnType<typeof signedInUser>>;
const submit = (user: User, fields: Record<string, string>, env: Record<string, string> = INDIA) =>
  outcome(() =>
    action({
      request: post(user.jar, "/dashboard/onboarding?step=1", fields),
      context: makeTestContext(database, env),
      params: {},
      ...routeArgs,
    }),
  );
const draftOf = async (user: User) =>
  (await database.db.selectFrom("onboarding_drafts").select("data").where("user_id", "=", user.id).executeTakeFirst())
    ?.data ?? null;

const dadi = {
  intent: "next",
  nickname: "Dadi",
  firstName: "Kamla",
  deliveryMethod: "call",
  phoneCountry: "IN",
  phone: "098765 43210",
  callConsent: "on",
  timeZone: "Asia/Kolkata",
  language: "hi",
};

async function inBothLanguages(keys: string[]) {
  const config = makeTestContext(database).config;
  const [en, hi] = [await getServerT("en", { config }), await getServerT("hi", { config })];
  return keys.map((key) => {
    expect(hi(key)).toMatch(/[\u0900-\u097F]/);
    expect(hi(key)).not.toBe(key);
    return en(key);
  });
}

describe("a Storyteller's number, of any country", () => {
  it("takes an Indian number written nationally for a phone call where India has a line", async () => {
    const user = await signedInUser(database);
    expect(await submit(user, dadi)).toMatchObject({ status: 302 });
    expect(await draftOf(user)).toMatchObject({ who: { phone: "098765 43210", phoneCountry: "IN" } });
  });

  it("refuses texts to India and calls where there is no line, saying what the number can get (en + hi)", async () => {
    const user = await signedInUser(database);
    const text = await submit(user, { ...dadi, deliveryMethod: "sms" });
    expect(text.status).toBe(400);
    const textErrors = replyErrorsOf(text.data)!.phone!;
    expect(await inBothLanguages(textErrors)).toEqual([
      "Text messages go only to US and Canadian mobile numbers.",
      "This number can get phone calls or WhatsApp messages.",
    ]);
    const noLine = await submit(user, { ...dadi, phoneCountry: "GB", phone: "020 7946 0958" });
    expect(await inBothLanguages(replyErrorsOf(noLine.data)!.phone!)).toEqual([
      "Heirloom has no phone line in this number's country yet, so it cannot call it.",
      "This number can get questions by email only: choose Email.",
    ]);
    const us = await submit(user, { ...dadi, deliveryMethod: "sms", phoneCountry: "US", phone: "+91 11 2345 6789" });
    expect(await inBothLanguages(replyErrorsOf(us.data)!.phone!)).toEqual([
      "Text messages go only to US and Canadian mobile numbers.",
      "This number can get phone calls.",
    ]);
    const bad = await submit(user, { ...dadi, phone: "12345" });
    expect(await inBothLanguages(replyErrorsOf(bad.data)!.phone!)).toEqual([
      "This is not a phone number we know. Choose its country, or write it with + and the country code.",
    ]);
    expect(await draftOf(user)).toBeNull();
  });

  it("shows the chosen method's fields again on a plain post, keeping every value and nothing else", async () => {
    const user = await signedInUser(database);
    const shown = await submit(user, {
      nickname: "Dadi",
      deliveryMethod: "call",
      zoneQuery: "भारत",
      __intent__: JSON.stringify({ type: "validate", payload: { name: "deliveryMethod" } }),
    });
    expect(shown.status).toBe(400);
    const result = (shown.data as { result: { initialValue: Record<string, string>; error?: Record<string, unknown> } })
      .result;
    expect(result.initialValue).toMatchObject({ nickname: "Dadi", deliveryMethod: "call", zoneQuery: "भारत" });
    expect(result.error?.deliveryMethod ?? null).toBeNull();
    expect(await draftOf(user)).toBeNull();
  });
});

describe("the form's lists", () => {
  it("name zones and countries in the reader's language, and read the number in the browser's region", async () => {
    const user = await signedInUser(database, { language: "hi" });
    const page = (await loader({
      request: new Request("http://localhost:3000/dashboard/onboarding?step=1", {
        headers: { Cookie: user.jar.header(), "Accept-Language": "hi-IN,hi;q=0.9" },
      }),
      context: makeTestContext(database),
      params: {},
      ...routeArgs,
    })) as {
      timeZones: { zone: string; label: string }[];
      phoneCountries: { code: string; name: string }[];
      phoneCountry: string;
    };
    expect(page.timeZones.find((z) => z.zone === "Asia/Kolkata")?.label).toBe("कोलकाता, भारत");
    expect(page.timeZones.find((z) => z.zone === "Europe/London")?.label).toBe("लंदन, यूनाइटेड किंगडम");
    expect(page.phoneCountries.find((c) => c.code === "IN")?.name).toBe("भारत");
    expect(page.phoneCountry).toBe("IN");
  });

  it("edit her number as her country writes it, beside her country", async () => {
    const owner = await signedInUser(database);
    const st = await createStoryteller(database.db, {
      ownerId: owner.id,
      phone: "+919876543210",
      timeZone: "Asia/Kolkata",
    });
    const page = (await editLoader({
      request: new Request(`http://localhost:3000/dashboard/recipient/${st.id}/edit`, {
        headers: { Cookie: owner.jar.header() },
      }),
      context: makeTestContext(database),
      params: { id: st.id },
      ...routeArgs,
    })) as { storyteller: { phone_e164: string }; phone: string; phoneCountry: string };
    expect(page.phone).toBe("098765 43210");
    expect(page.storyteller.phone_e164).toBe("+919876543210");
    expect(page.phoneCountry).toBe("IN");
  });
});
