import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendDelivery } from "~/models/delivery.server";
import { processWhatsAppVoiceNote } from "~/models/whatsapp.server";
import { createOutboxMail } from "~/services/mail.server";
import { createOutboxSms } from "~/services/sms.server";
import { createOutboxWhatsApp } from "~/services/whatsapp-simulator.server";
import { makeVoiceNote } from "../../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../../tests/context";
import { useTestDatabase } from "../../../tests/db";
import { createDelivery, createStoryteller, createUser } from "../../../tests/factories";
import { action, loader } from "./route";

const database = useTestDatabase();

let folder: string;
let oggNote: Buffer;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "whatsapp-sim-test-"));
  await makeVoiceNote(path.join(folder, "note.ogg"), "ogg", 2);
  oggNote = await readFile(path.join(folder, "note.ogg"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

function post(fields: Record<string, string>, voiceNote?: Buffer) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (voiceNote) form.set("voiceNote", new Blob([new Uint8Array(voiceNote)], { type: "audio/ogg" }), "PTT-0001.opus");
  const context = makeTestContext(database);
  return {
    context,
    response: action({
      request: new Request("http://localhost:3000/dev/outbox?whatsapp", { method: "POST", body: form }),
      context,
      params: {},
      ...routeArgs,
    }),
  };
}

describe("/dev/outbox WhatsApp simulator", () => {
  it("a voice note replied to a question becomes its answer through the same handler and job, thanked in Hindi", async () => {
    const context = makeTestContext(database);
    const whatsapp = createOutboxWhatsApp(context.storage, { print: false });
    const deps = {
      ...context,
      mail: createOutboxMail({ print: false }),
      sms: createOutboxSms({ print: false }),
      whatsapp,
    };
    const owner = await createUser(database.db, { first_name: "Asha" });
    const phone = "+919812345601";
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "whatsapp",
      phone,
      smsConsent: "granted",
      language: "hi",
      timeZone: "Asia/Kolkata",
    });
    const now = DateTime.fromObject({ year: 2026, month: 3, day: 2, hour: 11 }, { zone: "Asia/Kolkata" }).toJSDate();
    const delivery = await createDelivery(database.db, {
      promptId: storyteller.prompts[0].id,
      channel: "whatsapp",
      scheduledFor: now,
    });
    expect(await sendDelivery(deps, delivery.id, { sendNow: true, now })).toBe("sent");

    const shown = await loader({
      request: new Request("http://localhost:3000/dev/outbox"),
      context,
      params: {},
      ...routeArgs,
    });
    const question = shown.messages.find((m) => m.channel === "whatsapp" && m.to_address === phone)!;
    expect(question.text_body).toContain("Tell me about your first home.");
    expect(question.text_body).toMatch(/^नमस्ते Kamla, Asha इस सवाल पर आपका जवाब सुनना चाहते हैं/);

    const { response } = post({ from: phone, repliedTo: question.provider_message_id!, body: "" }, oggNote);
    expect(((await response) as Response).status).toBe(302);
    const [note] = await database.db
      .selectFrom("whatsapp_voice_notes")
      .selectAll()
      .where("phone_e164", "=", phone)
      .execute();
    expect(note.prompt_id).toBe(storyteller.prompts[0].id);
    expect(await processWhatsAppVoiceNote(deps, note.id)).toBe("thanks");
    const answers = await database.db
      .selectFrom("answers")
      .select(["content_type", "recorded_for_phone", "recorded_for_email"])
      .where("prompt_id", "=", storyteller.prompts[0].id)
      .execute();
    // Hers as the number it came from, which no account holds (decision 063).
    expect(answers).toEqual([{ content_type: "audio/ogg", recorded_for_phone: phone, recorded_for_email: null }]);

    const after = await loader({
      request: new Request("http://localhost:3000/dev/outbox"),
      context,
      params: {},
      ...routeArgs,
    });
    const mine = after.messages.filter((m) => m.to_address === phone).map((m) => [m.direction, m.text_body]);
    expect(mine).toEqual([
      ["outbound", "धन्यवाद! आपका जवाब सहेज लिया गया है, और Asha इसे जल्द ही सुनेंगे।"],
      ["inbound", "(वॉइस नोट)"],
      ["outbound", question.text_body],
    ]);
  });

  it("STOP from the simulator stops her questions; an empty post is refused with a message", async () => {
    const owner = await createUser(database.db);
    const phone = "+919812345602";
    const storyteller = await createStoryteller(database.db, {
      ownerId: owner.id,
      deliveryMethod: "whatsapp",
      phone,
      smsConsent: "granted",
      language: "en",
    });
    expect(((await post({ from: phone, body: "STOP" }).response) as Response).status).toBe(302);
    const row = await database.db
      .selectFrom("storytellers")
      .select("sms_consent")
      .where("id", "=", storyteller.id)
      .executeTakeFirstOrThrow();
    expect(row.sms_consent).toBe("revoked");

    const refused = (await post({ from: phone, body: "  " }).response) as { init: { status: number }; data: unknown };
    expect(refused.init.status).toBe(400);
    expect(JSON.stringify(refused.data)).toContain("whatsapp:simulator.nothingSent");
  });
});
