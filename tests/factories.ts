import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import type { DeliveryMethod, Frequency, Language, SmsConsent } from "../db/schema";

/** Rows for tests, inserted straight into the database with sensible defaults. */
export async function createUser(db: Db, fields: { first_name?: string; language?: Language } = {}) {
  return db
    .insertInto("users")
    .values({ email: `u-${randomUUID()}@example.com`, first_name: fields.first_name ?? "Asha", nickname: "asha", language: fields.language ?? "en" })
    .returning(["id", "email", "first_name"])
    .executeTakeFirstOrThrow();
}

export type StorytellerOptions = {
  ownerId: string;
  deliveryMethod?: DeliveryMethod;
  timeZone?: string;
  language?: Language;
  smsConsent?: SmsConsent;
  phone?: string;
  email?: string;
  frequency?: Frequency;
  firstPromptDate?: string;
  nextSendAt?: Date | null;
  prompts?: string[];
};

/** A Storyteller with a schedule and a queue of prompts (in order). */
export async function createStoryteller(db: Db, options: StorytellerOptions) {
  const method = options.deliveryMethod ?? "email";
  const storyteller = await db
    .insertInto("storytellers")
    .values({
      owner_id: options.ownerId,
      nickname: "Nani",
      first_name: "Kamla",
      delivery_method: method,
      email: method === "email" ? (options.email ?? `st-${randomUUID()}@example.com`) : null,
      phone_e164: method === "sms" ? (options.phone ?? "+15555550123") : null,
      time_zone: options.timeZone ?? "America/New_York",
      language: options.language ?? "en",
      sms_consent: options.smsConsent ?? (method === "sms" ? "granted" : "none"),
    })
    .returning(["id", "email", "phone_e164"])
    .executeTakeFirstOrThrow();
  await db
    .insertInto("schedules")
    .values({
      storyteller_id: storyteller.id,
      first_prompt_date: options.firstPromptDate ?? "2026-01-01",
      frequency: options.frequency ?? "daily",
      next_send_at: options.nextSendAt === undefined ? null : options.nextSendAt,
    })
    .execute();
  const prompts = options.prompts ?? ["Tell me about your first home."];
  const promptRows = prompts.length
    ? await db
        .insertInto("prompts")
        .values(prompts.map((text, index) => ({ storyteller_id: storyteller.id, text, queue_position: index + 1, created_by: options.ownerId })))
        .returning(["id", "text"])
        .execute()
    : [];
  return { ...storyteller, prompts: promptRows };
}
