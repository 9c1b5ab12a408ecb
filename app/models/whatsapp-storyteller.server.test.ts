import { describe, expect, it } from "vitest";
import { storytellerWithScheduleSchema } from "~/utils/storyteller-schema";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createUser } from "../../tests/factories";
import { checkStorytellerFields, saveStoryteller } from "./storyteller.server";
import { handleInboundWhatsApp } from "./whatsapp.server";

const database = useTestDatabase();
const services = () => makeTestContext(database);

const dadi = {
  nickname: "Dadi",
  firstName: "Savitri",
  deliveryMethod: "whatsapp" as const,
  phone: "+91 98123 45678",
  whatsappConsent: "on" as const,
  timeZone: "Asia/Kolkata",
  language: "hi" as const,
  firstPromptDate: "2027-01-01",
  frequency: "weekly" as const,
};

describe("a WhatsApp Storyteller on the shared form", () => {
  it("takes a number of any country (stored in E.164), where texts still take only US and Canadian ones", () => {
    expect(checkStorytellerFields(dadi, services().config)).toMatchObject({
      ok: true,
      columns: { delivery_method: "whatsapp", phone_e164: "+919812345678" },
    });
    expect(checkStorytellerFields({ ...dadi, deliveryMethod: "sms" }, services().config)).toEqual({
      ok: false,
      fieldErrors: { phone: ["storytellers:errors.smsOnlyUsCaMobile", "storytellers:errors.numberCan.whatsapp"] },
    });
    expect(checkStorytellerFields({ ...dadi, phone: "+91 12345" }, services().config)).toEqual({
      ok: false,
      fieldErrors: { phone: ["storytellers:errors.phoneInvalid"] },
    });
    // With Twilio but no WhatsApp sender, the method is refused.
    const twilio = makeTestContext(database, {
      TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
      TWILIO_AUTH_TOKEN: "x".repeat(20),
      TWILIO_FROM_NUMBER: "+15555550100",
    });
    expect(checkStorytellerFields(dadi, twilio.config)).toEqual({
      ok: false,
      fieldErrors: { deliveryMethod: ["storytellers:errors.whatsappUnavailable"] },
    });
  });

  it("requires the owner's word that she agreed, and keeps it as a consent record", async () => {
    const refused = storytellerWithScheduleSchema.safeParse({ ...dadi, whatsappConsent: undefined });
    expect(refused.error?.issues.map((i) => i.message)).toEqual(["storytellers:errors.whatsappConsentRequired"]);

    const owner = await createUser(database.db, { language: "hi" });
    const saved = await saveStoryteller(services(), { ownerId: owner.id }, dadi);
    if (!saved.ok) throw new Error("not saved");
    const row = await database.db
      .selectFrom("storytellers")
      .select(["sms_consent", "phone_e164"])
      .where("id", "=", saved.storytellerId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sms_consent: "granted", phone_e164: "+919812345678" });
    const consents = await database.db
      .selectFrom("sms_consents")
      .select(["status", "text_shown"])
      .where("storyteller_id", "=", saved.storytellerId)
      .execute();
    expect(consents).toEqual([
      {
        status: "granted",
        text_shown: "वे इस नंबर पर अपने तय समय पर व्हाट्सऐप पर Heirloom से सवाल पाने और वॉइस नोट से जवाब देने के लिए राज़ी हैं।",
      },
    ]);
  });

  it("does not let the owner's tick outweigh the number's own STOP", async () => {
    const phone = "+919812345679";
    await handleInboundWhatsApp(database.db, services().config, {
      from: phone,
      body: "STOP",
      messageSid: "SM" + "7".repeat(32),
      media: null,
      repliedTo: null,
    });
    const owner = await createUser(database.db);
    const saved = await saveStoryteller(services(), { ownerId: owner.id }, { ...dadi, phone });
    if (!saved.ok) throw new Error("not saved");
    const row = await database.db
      .selectFrom("storytellers")
      .select("sms_consent")
      .where("id", "=", saved.storytellerId)
      .executeTakeFirstOrThrow();
    expect(row.sms_consent).toBe("revoked");
  });
});
