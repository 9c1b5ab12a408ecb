import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

// Mirrors db/migrations. Timestamps come back as Date; `date` columns as "YYYY-MM-DD" strings
// (see the pg type parser in db/client.ts).
// NOT NULL without a default (expiry times): an insert must give it. Defaulted ones are Generated<Date>.
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T | undefined, string | T>;

export type Language = "en" | "hi";

/** A stretch of an answer's words and when it is spoken, in seconds from the start. */
export type TranscriptSegment = { start: number; end: number; text: string };

export interface UsersTable {
  id: Generated<string>;
  email: string;
  email_verified_at: NullableTimestamp;
  first_name: string;
  last_name: Generated<string>;
  nickname: string;
  language: Generated<Language>;
  phone_e164: string | null;
  profile_pic_key: string | null;
  google_sub: string | null;
  notify_activity: Generated<boolean>;
  notify_application: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
  user_agent: string | null;
}

export type DeliveryMethod = "email" | "sms" | "call";
export type SmsConsent = "none" | "requested" | "granted" | "revoked";
export type CallConsent = "none" | "granted" | "revoked";

export interface StorytellersTable {
  id: Generated<string>;
  owner_id: string;
  nickname: string;
  first_name: string;
  relationship: Generated<string>;
  delivery_method: DeliveryMethod;
  email: string | null;
  phone_e164: string | null;
  time_zone: string;
  language: Generated<Language>;
  profile_pic_key: string | null;
  unsubscribed_at: NullableTimestamp;
  email_undeliverable_at: NullableTimestamp;
  sms_consent: Generated<SmsConsent>;
  /** Calls (delivery method "call"): granted once the owner confirms they agreed (call_consents). */
  call_consent: Generated<CallConsent>;
  /** The user's own stories ("Record a story"): never sent to, never listed as someone they ask. */
  is_self: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type Frequency = "daily" | "weekly" | "bimonthly" | "monthly";

export interface SchedulesTable {
  storyteller_id: string;
  first_prompt_date: string;
  frequency: Frequency;
  next_send_at: NullableTimestamp;
  paused_at: NullableTimestamp;
  empty_queue_notified_at: NullableTimestamp;
  updated_at: Generated<Date>;
}

export interface PromptCategoriesTable {
  id: string;
  position: number;
  name_en: string;
  name_hi: string;
}

export interface LibraryPromptsTable {
  id: Generated<number>;
  category_id: string;
  position: number;
  text_en: string;
  text_hi: string;
}

export interface PromptsTable {
  id: Generated<string>;
  storyteller_id: string;
  created_by: string | null;
  library_prompt_id: number | null;
  text: string;
  is_custom: Generated<boolean>;
  queue_position: number;
  sent_at: NullableTimestamp;
  skipped_at: NullableTimestamp;
  opened_at: NullableTimestamp;
  rerecord_requested_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AnswersTable {
  id: Generated<string>;
  prompt_id: string;
  storyteller_id: string;
  is_private: Generated<boolean>;
  storage_key: string;
  content_type: string;
  byte_size: ColumnType<string, number | bigint, number | bigint>;
  duration_ms: number;
  playable_storage_key: string | null;
  playable_content_type: string | null;
  /** The words the family sees: the engine's, or the family's correction of them. */
  transcript: string | null;
  /** "waiting": no speech engine or model installed yet (transcribed once one is, oldest first). */
  transcript_status: Generated<"pending" | "waiting" | "done" | "none" | "failed">;
  /** `transcript` cut where the voice pauses, with timings; null when the words came without them. */
  transcript_segments: Json<TranscriptSegment[] | null>;
  /** What the engine heard, as it came: kept when the family corrects the words. */
  machine_transcript: string | null;
  machine_segments: Json<TranscriptSegment[] | null>;
  transcript_edited_by: string | null;
  transcript_edited_at: NullableTimestamp;
  /** The machine's words a correction was made over (migration 0020): when machine_transcript differs, newer words wait beside it. */
  transcript_edited_over: string | null;
  upload_id: string | null;
  /** Lower-cased address the record link went to (email Storytellers): who may hear it as its Storyteller. */
  recorded_for_email: string | null;
  /** The Storyteller answered by calling in (or being called): the recording came from Twilio. */
  via_phone: Generated<boolean>;
  created_at: Generated<Date>;
}

/** A prompt's 6-digit answer code: derived from the prompt id and `salt`, looked up by its HMAC. */
export interface AnswerCodesTable {
  prompt_id: string;
  salt: number;
  code_hmac: string;
  created_at: Generated<Date>;
}

export interface PhoneCallsTable {
  call_sid: string;
  direction: "inbound" | "outbound";
  caller_e164: string;
  called_e164: string;
  storyteller_id: string | null;
  prompt_id: string | null;
  language: Generated<Language>;
  silent_tries: Generated<number>;
  ended_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PhoneCodeFailuresTable {
  id: Generated<string>;
  caller_e164: string;
  called_e164: string;
  created_at: Generated<Date>;
}

export type PhoneRecordingStatus = "pending" | "kept" | "discarded" | "stored" | "done" | "rejected";

export interface PhoneRecordingsTable {
  id: Generated<string>;
  recording_sid: string;
  call_sid: string;
  prompt_id: string | null;
  status: Generated<PhoneRecordingStatus>;
  duration_seconds: number;
  answer_id: string | null;
  error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type Channel = "email" | "sms" | "call";

export interface DeliveriesTable {
  id: Generated<string>;
  prompt_id: string;
  channel: Channel;
  purpose: Generated<"prompt" | "resend">;
  status: Generated<"pending" | "sending" | "sent" | "failed" | "cancelled">;
  attempts: Generated<number>;
  provider_message_id: string | null;
  outbox_message_id: string | null;
  error: string | null;
  scheduled_for: Generated<Date>;
  sent_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SmsConsentsTable {
  id: Generated<string>;
  /** Null once the Storyteller is deleted: the number's answer is still honoured. */
  storyteller_id: string | null;
  phone_e164: string;
  text_shown: string;
  reply: string | null;
  status: "requested" | "granted" | "revoked";
  created_at: Generated<Date>;
  replied_at: NullableTimestamp;
}

/** The owner's word that the Storyteller agreed to be called, and opt-outs (decision 027). */
export interface CallConsentsTable {
  id: Generated<string>;
  /** Null once the Storyteller is deleted: the number's opt-out is still honoured. */
  storyteller_id: string | null;
  phone_e164: string;
  status: "granted" | "revoked";
  source: "owner" | "call" | "text";
  statement: string;
  given_by: string | null;
  created_at: Generated<Date>;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  storyteller_id: string | null;
  prompt_id: string | null;
  is_new: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface GroupsTable {
  id: Generated<string>;
  owner_id: string;
  storyteller_id: string;
  name: string;
  description: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  role: "owner" | "collaborator";
  joined_at: Generated<Date>;
}

export interface GroupInvitationsTable {
  id: Generated<string>;
  group_id: string;
  email: string;
  invited_by: string | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface UserInvitationsTable {
  id: Generated<string>;
  invited_by: string;
  email: string;
  group_id: string | null;
  created_at: Generated<Date>;
}

export interface ShareLinksTable {
  id: Generated<string>;
  answer_id: string;
  created_by_user_id: string | null;
  created_at: Generated<Date>;
  revoked_at: NullableTimestamp;
}

export type KeepsakeKind = "export" | "book";
export type KeepsakeStatus = "queued" | "building" | "ready" | "failed";

export interface KeepsakesTable {
  id: Generated<string>;
  user_id: string;
  /** Null: the user's "everything I can hear" export. */
  storyteller_id: string | null;
  kind: KeepsakeKind;
  status: Generated<KeepsakeStatus>;
  progress: Generated<number>;
  options: Json<Record<string, unknown>>;
  storage_key: string | null;
  byte_size: ColumnType<string | null, number | bigint | null | undefined, number | bigint | null>;
  error: string | null;
  created_at: Generated<Date>;
  ready_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}

export interface ListenLinksTable {
  id: Generated<string>;
  answer_id: string;
  created_by_user_id: string | null;
  created_at: Generated<Date>;
  revoked_at: NullableTimestamp;
}

export interface GroupDraftsTable {
  user_id: string;
  data: Json<Record<string, unknown>>;
  updated_at: Generated<Date>;
}

export interface OnboardingDraftsTable {
  user_id: string;
  data: Json<Record<string, unknown>>;
  updated_at: Generated<Date>;
}

export interface OutboxMessagesTable {
  id: Generated<string>;
  channel: Channel;
  to_address: string;
  subject: string | null;
  text_body: string;
  html_body: string | null;
  headers: Json<Record<string, string>>;
  status: Generated<"queued" | "sending" | "sent" | "failed">;
  provider: string | null;
  provider_message_id: string | null;
  error: string | null;
  created_at: Generated<Date>;
  claimed_at: NullableTimestamp;
  /** The graphile-worker job that claimed it ("sending"); null when sent outside a job. */
  claimed_by: string | null;
  sent_at: NullableTimestamp;
}

export interface EmailOptOutsTable {
  /** Lower-cased. */
  email: string;
  created_at: Generated<Date>;
}

export interface ContactMessagesTable {
  id: Generated<string>;
  name: string;
  email: string;
  message: string;
  language: Generated<string>;
  created_at: Generated<Date>;
}

/** A sign-in in progress: one per address; the browser holds the id, we keep its hash and the code's. */
export interface AuthFlowsTable {
  id_hash: string;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}

export interface EmailChangesTable {
  user_id: string;
  new_email: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  points: number;
  expire: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  storytellers: StorytellersTable;
  schedules: SchedulesTable;
  prompt_categories: PromptCategoriesTable;
  library_prompts: LibraryPromptsTable;
  prompts: PromptsTable;
  answers: AnswersTable;
  deliveries: DeliveriesTable;
  sms_consents: SmsConsentsTable;
  call_consents: CallConsentsTable;
  notifications: NotificationsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  group_invitations: GroupInvitationsTable;
  user_invitations: UserInvitationsTable;
  share_links: ShareLinksTable;
  keepsakes: KeepsakesTable;
  listen_links: ListenLinksTable;
  onboarding_drafts: OnboardingDraftsTable;
  group_drafts: GroupDraftsTable;
  outbox_messages: OutboxMessagesTable;
  contact_messages: ContactMessagesTable;
  email_opt_outs: EmailOptOutsTable;
  rate_limits: RateLimitsTable;
  auth_flows: AuthFlowsTable;
  email_changes: EmailChangesTable;
  answer_codes: AnswerCodesTable;
  phone_calls: PhoneCallsTable;
  phone_code_failures: PhoneCodeFailuresTable;
  phone_recordings: PhoneRecordingsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Storyteller = Selectable<StorytellersTable>;
export type Prompt = Selectable<PromptsTable>;
export type OutboxMessage = Selectable<OutboxMessagesTable>;
export type NewOutboxMessage = Insertable<OutboxMessagesTable>;
