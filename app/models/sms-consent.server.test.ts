import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { numberHasSentStop } from "~/services/outbox.server";
import { createDb, createPool, type Db } from "../../db/client";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createStoryteller, createUser } from "../../tests/factories";
import { handleInboundSms } from "./sms-consent.server";
import { handleInboundWhatsApp } from "./whatsapp.server";

const database = useTestDatabase();
// Several web processes' worth of connections: the messages below really overlap.
let db: Db;
beforeAll(() => {
  db = createDb(createPool(database.url, 16));
});
afterAll(() => db.destroy());

const sid = (prefix: string) => prefix + randomBytes(16).toString("hex");

describe("STOP and START arriving all at once", () => {
  it("sixty texts and forty WhatsApp messages from one number end on the newest one's word", async () => {
    const { config } = makeTestContext(database);
    const phone = "+919812345678";
    const owner = await createUser(database.db, { first_name: "Asha" });
    const texted = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "sms",
      phone,
      smsConsent: "granted",
    });
    const onWhatsApp = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "whatsapp",
      phone,
      smsConsent: "granted",
    });

    // One a second; every fourth a START, the newest (the last) a START, the oldest a STOP.
    const start = new Date("2026-05-01T05:00:00Z").getTime();
    const messages = Array.from({ length: 100 }, (_, i) => ({
      at: new Date(start + i * 1000),
      body: i % 4 === 3 ? (i % 8 === 3 ? "START" : "शुरू") : i % 2 ? "बंद" : "STOP",
      channel: i % 5 < 3 ? ("sms" as const) : ("whatsapp" as const),
    }));
    expect(messages.filter((m) => m.channel === "sms")).toHaveLength(60);
    expect(messages.at(-1)!.body).toMatch(/START|शुरू/);

    // Handed over newest first, so the oldest are the last to be taken up.
    await Promise.all(
      messages
        .toReversed()
        .map((m) =>
          m.channel === "sms"
            ? handleInboundSms(db, config, { from: phone, body: m.body, messageSid: sid("SM") }, m.at)
            : handleInboundWhatsApp(
                db,
                config,
                { from: phone, body: m.body, messageSid: sid("SM"), media: null, repliedTo: null },
                m.at,
              ),
        ),
    );

    const consents = await database.db
      .selectFrom("storytellers")
      .select(["id", "sms_consent"])
      .where("phone_e164", "=", phone)
      .orderBy("created_at")
      .execute();
    expect(consents).toEqual([
      { id: texted.id, sms_consent: "granted" },
      { id: onWhatsApp.id, sms_consent: "granted" },
    ]);
    const newest = await database.db
      .selectFrom("sms_consents")
      .select(["status", "reply", "replied_at"])
      .where("phone_e164", "=", phone)
      .where("replied_at", "is not", null)
      .orderBy("replied_at", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(newest).toEqual({ status: "granted", reply: messages.at(-1)!.body, replied_at: messages.at(-1)!.at });
    // The texts' STOP check before each send agrees: questions go again.
    expect(await numberHasSentStop(database.db, phone)).toBe(false);
    // Every message is kept in the ledger, the superseded ones too.
    const ledger = await database.db
      .selectFrom("sms_consents")
      .select("id")
      .where("phone_e164", "=", phone)
      .where("replied_at", "is not", null)
      .execute();
    expect(ledger.length).toBeGreaterThanOrEqual(100);
  });
});
