import type { Selectable } from "kysely";
import type { DB, OutboxMessages, Prompts, Storytellers, Users } from "./database.generated";

// The app's names for the generated types (db/database.generated.ts, `npm run db:types`). Nothing
// here restates a column: each name is read from the generated tables, so a migration reaches it.

export type { TranscriptSegment } from "./column-types";
export type * from "./database.generated";

export type Database = DB;

export type User = Selectable<Users>;
export type Storyteller = Selectable<Storytellers>;
export type Prompt = Selectable<Prompts>;
export type OutboxMessage = Selectable<OutboxMessages>;

export type Language = User["language"];
export type DeliveryMethod = Storyteller["delivery_method"];
export type SmsConsent = Storyteller["sms_consent"];
export type CallConsent = Storyteller["call_consent"];
export type Frequency = Selectable<DB["schedules"]>["frequency"];
export type Channel = Selectable<DB["deliveries"]>["channel"];
