import type { Storyteller } from "../../db/schema";

// Storyteller columns that travel together, for queries that join `storytellers as s`. One list each,
// so a new consent or opt-out column reaches every query that decides whether to send.

/** Whether the Storyteller can be sent to now (canReceive): how they are reached, opt-outs, consents. */
export const reachColumns = [
  "s.delivery_method",
  "s.unsubscribed_at",
  "s.email_undeliverable_at",
  "s.sms_consent",
  "s.call_consent",
] as const;

/** Where they are reached, and when and in what language they hear from us. */
export const contactColumns = ["s.email", "s.phone_e164", "s.time_zone", "s.language"] as const;

/** How the family names them. */
export const nameColumns = ["s.nickname", "s.first_name", "s.relationship"] as const;

type Unaliased<T> = T extends `s.${infer Column extends keyof Storyteller}` ? Column : never;

/** A row with reachColumns, as canReceive reads it. */
export type StorytellerReach = Pick<Storyteller, Unaliased<(typeof reachColumns)[number]>>;
