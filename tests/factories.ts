import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type Selectable, sql } from "kysely";
import { createUserSession } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import { storageKeys } from "~/services/storage-keys";
import type { StorageService } from "~/services/storage.server";
import type { DbOrTx } from "../db/client";
import type {
  CallConsent,
  Channel,
  Deliveries,
  DeliveryMethod,
  Frequency,
  Language,
  SmsConsent,
  TranscriptSegment,
} from "../db/schema";

// Rows for tests, inserted straight into the database with sensible defaults: a test names only what
// it is about. Every default is unique where the schema asks for it (emails, keys, queued texts).

let sequence = 0;
const next = () => ++sequence;
const tag = () => randomBytes(5).toString("hex");

export type UserOptions = {
  email?: string;
  first_name?: string;
  last_name?: string;
  nickname?: string;
  language?: Language;
  notify_activity?: boolean;
  notify_application?: boolean;
  google_sub?: string | null;
  email_verified_at?: Date | null;
  profile_pic_key?: string | null;
};

export async function createUser(db: DbOrTx, fields: UserOptions = {}) {
  return (
    db
      .insertInto("users")
      // Kysely leaves out undefined values, so what a test does not name gets the column's default.
      .values({
        ...fields,
        email: fields.email ?? `u-${randomUUID()}@example.com`,
        first_name: fields.first_name ?? "Asha",
        nickname: fields.nickname ?? "asha",
      })
      .returning(["id", "email", "first_name", "nickname", "language"])
      .executeTakeFirstOrThrow()
  );
}

export type StorytellerOptions = {
  ownerId: string;
  nickname?: string;
  firstName?: string;
  deliveryMethod?: DeliveryMethod;
  timeZone?: string;
  language?: Language;
  smsConsent?: SmsConsent;
  /** Default: granted for a Storyteller called (delivery method "call"), none otherwise. */
  callConsent?: CallConsent;
  /** Default: one for a texting or called Storyteller, none otherwise; null for none. */
  phone?: string | null;
  /** Default: a fresh address for an email Storyteller, none otherwise; null for none. */
  email?: string | null;
  unsubscribedAt?: Date | null;
  frequency?: Frequency;
  firstPromptDate?: string;
  nextSendAt?: Date | null;
  pausedAt?: Date | null;
  /** Its prompts, in queue order (default: one, not sent yet). */
  prompts?: StorytellerPrompt[];
  /** The storage key of its photo (the caller puts the file). */
  profilePicKey?: string | null;
};

/** A prompt's text, or its text and when it was sent (and the library question it came from). */
export type StorytellerPrompt = string | { text: string; sentAt?: Date | null; libraryPromptId?: number };

function promptRow(storytellerId: string, prompt: StorytellerPrompt, index: number, createdBy: string) {
  const { text, sentAt = null, libraryPromptId = null } = typeof prompt === "string" ? { text: prompt } : prompt;
  return {
    storyteller_id: storytellerId,
    text,
    queue_position: index + 1,
    created_by: createdBy,
    sent_at: sentAt,
    library_prompt_id: libraryPromptId,
  };
}

function storytellerRow(options: StorytellerOptions) {
  const method = options.deliveryMethod ?? "email";
  return {
    owner_id: options.ownerId,
    nickname: options.nickname ?? "Nani",
    first_name: options.firstName ?? "Kamla",
    delivery_method: method,
    email: options.email !== undefined ? options.email : method === "email" ? `st-${randomUUID()}@example.com` : null,
    phone_e164: options.phone !== undefined ? options.phone : method !== "email" ? "+15555550123" : null,
    time_zone: options.timeZone ?? "America/New_York",
    language: options.language ?? "en",
    sms_consent: options.smsConsent ?? (method === "sms" ? ("granted" as const) : ("none" as const)),
    call_consent: options.callConsent ?? (method === "call" ? ("granted" as const) : ("none" as const)),
    unsubscribed_at: options.unsubscribedAt ?? null,
    profile_pic_key: options.profilePicKey ?? null,
  };
}

function scheduleRow(storytellerId: string, options: StorytellerOptions) {
  return {
    storyteller_id: storytellerId,
    first_prompt_date: options.firstPromptDate ?? "2026-01-01",
    frequency: options.frequency ?? ("daily" as const),
    next_send_at: options.nextSendAt ?? null,
    paused_at: options.pausedAt ?? null,
  };
}

/** A Storyteller with a schedule and their prompts (in queue order). */
export async function createStoryteller(db: DbOrTx, options: StorytellerOptions) {
  const storyteller = await db
    .insertInto("storytellers")
    .values(storytellerRow(options))
    .returning(["id", "email", "phone_e164"])
    .executeTakeFirstOrThrow();
  await db.insertInto("schedules").values(scheduleRow(storyteller.id, options)).execute();
  const prompts = options.prompts ?? ["Tell me about your first home."];
  const promptRows = prompts.length
    ? await db
        .insertInto("prompts")
        .values(prompts.map((prompt, index) => promptRow(storyteller.id, prompt, index, options.ownerId)))
        .returning(["id", "text"])
        .execute()
    : [];
  return { ...storyteller, prompts: promptRows };
}

/** Many Storytellers at once (three statements, whatever the count), each with a schedule and one queued prompt. */
export async function createStorytellers(db: DbOrTx, count: number, options: StorytellerOptions) {
  const storytellers = await db
    .insertInto("storytellers")
    .values(Array.from({ length: count }, () => storytellerRow(options)))
    .returning("id")
    .execute();
  await db
    .insertInto("schedules")
    .values(storytellers.map((s) => scheduleRow(s.id, options)))
    .execute();
  const [prompt] = options.prompts ?? ["What did you play as a child?"];
  await db
    .insertInto("prompts")
    .values(storytellers.map((s) => promptRow(s.id, prompt, 0, options.ownerId)))
    .execute();
  return storytellers;
}

export type PromptOptions = {
  storytellerId: string;
  text?: string;
  /** Default: after the last one in the Storyteller's queue. */
  queuePosition?: number;
  createdBy?: string | null;
  sentAt?: Date | null;
  skippedAt?: Date | null;
  openedAt?: Date | null;
  rerecordRequestedAt?: Date | null;
};

/** One prompt; `sentAt` makes it a sent one. */
export async function createPrompt(db: DbOrTx, options: PromptOptions) {
  return db
    .insertInto("prompts")
    .values({
      storyteller_id: options.storytellerId,
      text: options.text ?? `What do you remember about the year you turned ${next()}?`,
      queue_position:
        options.queuePosition ??
        sql<number>`(select coalesce(max(queue_position), 0) + 1 from prompts where storyteller_id = ${options.storytellerId})`,
      created_by: options.createdBy ?? null,
      sent_at: options.sentAt ?? null,
      skipped_at: options.skippedAt ?? null,
      opened_at: options.openedAt ?? null,
      rerecord_requested_at: options.rerecordRequestedAt ?? null,
    })
    .returning(["id", "text", "storyteller_id", "sent_at"])
    .executeTakeFirstOrThrow();
}

export type AnswerOptions = {
  storytellerId: string;
  /** When it was answered. Default: now. */
  createdAt?: Date;
  /** Default: a new sent prompt of the Storyteller's. */
  promptId?: string;
  /** With `storage`, the recording is stored for real under the answer's key (and byte_size is its length). */
  storage?: StorageService;
  audio?: Uint8Array;
  contentType?: string;
  storageKey?: string;
  byteSize?: number;
  durationMs?: number;
  isPrivate?: boolean;
  /** A playable (AAC) copy, stored too when `storage` is given. */
  playable?: { audio?: Uint8Array; contentType?: string; storageKey?: string };
  transcript?: string | null;
  transcriptStatus?: "pending" | "waiting" | "done" | "none" | "failed";
  /** The words with timings; `transcript` defaults to their texts joined with " " (the contract of migration 0019). */
  transcriptSegments?: TranscriptSegment[] | null;
  /** What the engine heard (kept when the family corrects it); defaults to the segments' and transcript given. */
  machineTranscript?: string | null;
  machineSegments?: TranscriptSegment[] | null;
  /** A family's correction: who and when. */
  transcriptEditedBy?: string | null;
  transcriptEditedAt?: Date | null;
  recordedForEmail?: string | null;
  uploadId?: string | null;
  /** Answered by calling in (decision 022). */
  viaPhone?: boolean;
  id?: string;
};

/** An answer row (for a sent prompt), its recording optionally put in storage. */
export async function createAnswer(db: DbOrTx, options: AnswerOptions) {
  const promptId =
    options.promptId ?? (await createPrompt(db, { storytellerId: options.storytellerId, sentAt: new Date() })).id;
  const id = options.id ?? randomUUID();
  const contentType = options.contentType ?? "audio/webm";
  const audio = options.audio ?? new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]);
  const storageKey =
    options.storageKey ?? storageKeys.answerOriginal(promptId, contentType.includes("mp4") ? "m4a" : "webm");
  const playable = options.playable && {
    audio: options.playable.audio ?? new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]),
    contentType: options.playable.contentType ?? "audio/mp4",
    storageKey: options.playable.storageKey ?? storageKeys.answerPlayable(id),
  };
  const segments = options.transcriptSegments ?? null;
  const transcript = options.transcript ?? (segments ? segments.map((segment) => segment.text).join(" ") : null);
  if (options.storage) {
    await options.storage.put(storageKey, audio, contentType);
    if (playable) await options.storage.put(playable.storageKey, playable.audio, playable.contentType);
  }
  // As acceptRecording does: an answered prompt's code stops working (decision 022).
  await db.deleteFrom("answer_codes").where("prompt_id", "=", promptId).execute();
  const row = await db
    .insertInto("answers")
    .values({
      id,
      prompt_id: promptId,
      storyteller_id: options.storytellerId,
      is_private: options.isPrivate ?? false,
      storage_key: storageKey,
      content_type: contentType,
      byte_size: options.byteSize ?? audio.byteLength,
      duration_ms: options.durationMs ?? 3000,
      playable_storage_key: playable?.storageKey ?? null,
      playable_content_type: playable?.contentType ?? null,
      transcript: transcript,
      transcript_status: options.transcriptStatus ?? (transcript ? "done" : "pending"),
      transcript_segments: segments ? JSON.stringify(segments) : null,
      machine_transcript: options.machineTranscript === undefined ? transcript : options.machineTranscript,
      machine_segments: JSON.stringify(options.machineSegments === undefined ? segments : options.machineSegments),
      transcript_edited_by: options.transcriptEditedBy ?? null,
      transcript_edited_at: options.transcriptEditedAt ?? null,
      recorded_for_email: options.recordedForEmail ?? null,
      upload_id: options.uploadId ?? null,
      via_phone: options.viaPhone ?? false,
      created_at: options.createdAt,
    })
    .returning(["id", "prompt_id", "storyteller_id", "storage_key", "playable_storage_key"])
    .executeTakeFirstOrThrow();
  return row;
}

export type DeliveryOptions = {
  promptId: string;
  channel?: Channel;
  purpose?: "prompt" | "resend";
  status?: Selectable<Deliveries>["status"];
  scheduledFor?: Date;
  error?: string | null;
  outboxMessageId?: string | null;
  providerMessageId?: string | null;
  sentAt?: Date | null;
};

/** A send ledger row (default: a pending email for now, as the scheduler's tick writes it). */
export async function createDelivery(db: DbOrTx, options: DeliveryOptions) {
  return db
    .insertInto("deliveries")
    .values({
      prompt_id: options.promptId,
      channel: options.channel ?? "email",
      // Left undefined, these take the column defaults (prompt, pending, now).
      purpose: options.purpose,
      status: options.status,
      scheduled_for: options.scheduledFor,
      error: options.error,
      outbox_message_id: options.outboxMessageId,
      provider_message_id: options.providerMessageId,
      sent_at: options.sentAt,
    })
    .returning(["id", "prompt_id", "channel", "status"])
    .executeTakeFirstOrThrow();
}

/**
 * A prompt's record link as the send job leaves it once sent by email to `to`: the message in the
 * outbox and the prompt's own ledger row pointing at it (where the Storyteller's own account comes
 * from: recordLinkAddress).
 */
export async function createSentEmail(db: DbOrTx, options: { promptId: string; to: string; sentAt?: Date }) {
  const sentAt = options.sentAt ?? new Date();
  const message = await db
    .insertInto("outbox_messages")
    .values({
      channel: "email",
      to_address: options.to,
      subject: "A question for you",
      text_body: "Record your answer",
      status: "sent",
      sent_at: sentAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return createDelivery(db, {
    promptId: options.promptId,
    status: "sent",
    outboxMessageId: message.id,
    sentAt,
  });
}

/** A session row as-is (for expiry tests); to act as a signed-in user, use `signIn`. */
export async function createSession(
  db: DbOrTx,
  options: { userId: string; expiresAt?: Date; lastSeenAt?: Date; userAgent?: string | null },
) {
  return db
    .insertInto("sessions")
    .values({
      id_hash: createHash("sha256").update(randomBytes(32)).digest("base64url"),
      user_id: options.userId,
      expires_at: options.expiresAt ?? new Date(Date.now() + 14 * 86_400_000),
      last_seen_at: options.lastSeenAt ?? new Date(),
      user_agent: options.userAgent ?? null,
    })
    .returning(["id_hash", "user_id"])
    .executeTakeFirstOrThrow();
}

/**
 * Signs `userId` in the way the app does (a session row and its cookie): `cookie` is the Cookie
 * header a browser then sends, `setCookie` the header the app answered with (for a CookieJar).
 */
export async function signIn(context: Pick<AppContext, "config" | "db">, userId: string) {
  const setCookie = await createUserSession(context, context.db, userId);
  return { setCookie, cookie: setCookie.split(";")[0] };
}

/** A new user, signed in. */
export async function createSignedInUser(context: Pick<AppContext, "config" | "db">, fields: UserOptions = {}) {
  const user = await createUser(context.db, fields);
  return { ...user, ...(await signIn(context, user.id)) };
}

/** A group around a Storyteller: its owner as "owner" and each of `collaborators` as "collaborator". */
export async function createGroup(
  db: DbOrTx,
  options: { ownerId: string; storytellerId: string; collaborators?: string[]; name?: string; description?: string },
) {
  const group = await db
    .insertInto("groups")
    .values({
      owner_id: options.ownerId,
      storyteller_id: options.storytellerId,
      name: options.name ?? "Family",
      description: options.description ?? "Everyone who loves Nani",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await addGroupMembers(db, group.id, [
    { userId: options.ownerId, role: "owner" },
    ...(options.collaborators ?? []).map((userId) => ({ userId, role: "collaborator" as const })),
  ]);
  return group;
}

export async function addGroupMembers(
  db: DbOrTx,
  groupId: string,
  members: { userId: string; role?: "owner" | "collaborator" }[],
) {
  if (!members.length) return;
  await db
    .insertInto("group_members")
    .values(members.map((m) => ({ group_id: groupId, user_id: m.userId, role: m.role ?? "collaborator" })))
    .execute();
}

/** In-app notifications for a user, one per `createdAt` (default: one, now). */
export async function createNotifications(
  db: DbOrTx,
  options: {
    userId: string;
    type?: string;
    storytellerId?: string | null;
    promptId?: string | null;
    isNew?: boolean;
    createdAt?: Date[];
  },
) {
  const times = options.createdAt ?? [new Date()];
  const rows = await db
    .insertInto("notifications")
    .values(
      times.map((createdAt) => ({
        user_id: options.userId,
        type: options.type ?? "uploaded",
        storyteller_id: options.storytellerId ?? null,
        prompt_id: options.promptId ?? null,
        is_new: options.isNew ?? true,
        created_at: createdAt,
      })),
    )
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}

export async function createShareLink(
  db: DbOrTx,
  options: { answerId: string; createdBy?: string | null; revokedAt?: Date | null },
) {
  return db
    .insertInto("share_links")
    .values({
      answer_id: options.answerId,
      created_by_user_id: options.createdBy ?? null,
      revoked_at: options.revokedAt ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** A book's listen link for an answer (decision 023). */
export async function createListenLink(
  db: DbOrTx,
  options: { answerId: string; createdBy?: string | null; revokedAt?: Date | null },
) {
  return db
    .insertInto("listen_links")
    .values({
      answer_id: options.answerId,
      created_by_user_id: options.createdBy ?? null,
      revoked_at: options.revokedAt ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** An export or book; with `storageKey` it is ready (for 7 days from now, unless `expiresAt`). */
export async function createKeepsake(
  db: DbOrTx,
  options: {
    userId: string;
    storytellerId?: string | null;
    kind?: "export" | "book";
    storageKey?: string;
    byteSize?: number;
    expiresAt?: Date;
    /** An "everything" export's Storytellers, as its job writes them when it is ready (default none). */
    storytellerIds?: string[];
  },
) {
  const ready = options.storageKey !== undefined;
  const everything = ready && !options.storytellerId && (options.kind ?? "export") === "export";
  return db
    .insertInto("keepsakes")
    .values({
      user_id: options.userId,
      storyteller_id: options.storytellerId ?? null,
      kind: options.kind ?? "export",
      status: ready ? "ready" : "queued",
      progress: ready ? 100 : 0,
      storage_key: options.storageKey ?? null,
      byte_size: options.byteSize ?? null,
      ready_at: ready ? new Date() : null,
      expires_at: ready ? (options.expiresAt ?? new Date(Date.now() + 7 * 86_400_000)) : null,
      ...(everything ? { options: JSON.stringify({ storytellerIds: options.storytellerIds ?? [] }) } : {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** A sign-in waiting for its code (the row only; the code itself is not recoverable from it). */
export async function createAuthFlow(db: DbOrTx, options: { email?: string; expiresAt?: Date } = {}) {
  return db
    .insertInto("auth_flows")
    .values({
      id_hash: `test-${tag()}`,
      email: options.email ?? `flow-${tag()}@example.com`,
      code_hash: `test-${tag()}`,
      expires_at: options.expiresAt ?? new Date(Date.now() + 15 * 60_000),
    })
    .returning(["id_hash", "email"])
    .executeTakeFirstOrThrow();
}

/** A requested change of email, waiting for its code. */
export async function createEmailChange(db: DbOrTx, options: { userId: string; newEmail?: string; expiresAt?: Date }) {
  return db
    .insertInto("email_changes")
    .values({
      user_id: options.userId,
      new_email: options.newEmail ?? `new-${tag()}@example.com`,
      code_hash: `test-${tag()}`,
      expires_at: options.expiresAt ?? new Date(Date.now() + 15 * 60_000),
    })
    .returning(["user_id", "new_email"])
    .executeTakeFirstOrThrow();
}

/** Takes a member out of a group, as leaving it or being removed from it does (the row is gone either way). */
export async function deleteGroupMember(db: DbOrTx, groupId: string, userId: string) {
  await db.deleteFrom("group_members").where("group_id", "=", groupId).where("user_id", "=", userId).execute();
}

export type BulkAnswerOptions = {
  /** The answers go to these Storytellers in turn (the first answer to the first, and so on). */
  storytellerIds: string[];
  count: number;
  /** The newest answer's time; each next one is `spacingMs` older (0: all at one instant; 0.001: a microsecond). */
  newest?: Date;
  spacingMs?: number;
  /** Every n-th answer (counting from the newest, 0-based: i % n === 0) is private. Default: none. */
  privateEvery?: number;
  recordedForEmail?: string | null;
  transcript?: string | null;
};

/**
 * Many answers at once, each for its own sent prompt, in one statement whatever the count (for
 * query-count tests and query plans with 10,000 answers). Nothing is put in storage. Returned newest
 * first.
 */
export async function createAnswersInBulk(db: DbOrTx, options: BulkAnswerOptions) {
  const newest = options.newest ?? new Date();
  const spacing = options.spacingMs ?? 60_000;
  const privateEvery = options.privateEvery ?? 0;
  const transcript = options.transcript === undefined ? "A story, in their own words." : options.transcript;
  const { rows } = await sql<{ id: string; storyteller_id: string; created_at: Date; is_private: boolean }>`
    with n as (
      select g as i, gen_random_uuid() as prompt_id,
        (${options.storytellerIds}::uuid[])[1 + g % ${options.storytellerIds.length}::int] as storyteller_id,
        ${newest}::timestamptz - (g * ${spacing}::double precision) * interval '1 millisecond' as at
      from generate_series(0, ${options.count}::int - 1) as g
    ), p as (
      insert into prompts (id, storyteller_id, text, queue_position, sent_at)
      select prompt_id, storyteller_id, 'Bulk question ' || i || '?', 100000 + i, at - interval '1 day' from n
      returning id
    ), made as (
      insert into answers (prompt_id, storyteller_id, is_private, storage_key, content_type, byte_size, duration_ms,
        transcript, transcript_status, recorded_for_email, created_at)
      select n.prompt_id, n.storyteller_id, ${privateEvery}::int > 0 and n.i % greatest(${privateEvery}::int, 1) = 0,
        'answers/' || n.prompt_id || '/bulk.webm', 'audio/webm', 4, 1000 * (5 + n.i % 300),
        ${transcript}::text, case when ${transcript}::text is null then 'none' else 'done' end,
        ${options.recordedForEmail?.toLowerCase() ?? null}::text, n.at
      from n join p on p.id = n.prompt_id
      returning id, storyteller_id, created_at, is_private
    )
    select * from made order by created_at desc, id desc
  `.execute(db);
  return rows;
}

/** The Storyteller row standing for a user themself (storytellers.is_self): where their own recorded stories go. */
export async function createSelfStoryteller(db: DbOrTx, user: { id: string; email: string; first_name: string }) {
  return db
    .insertInto("storytellers")
    .values({
      owner_id: user.id,
      nickname: user.first_name,
      first_name: user.first_name,
      delivery_method: "email",
      email: user.email,
      time_zone: "America/New_York",
      is_self: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/**
 * A group invitation in any state: open by default (sent now, good for 30 days); `acceptedAt`,
 * `revokedAt` or a past `expiresAt` make it accepted, revoked or expired. Its link is
 * signCapability(config, "group-invite", id).
 */
export async function createGroupInvitation(
  db: DbOrTx,
  options: {
    groupId: string;
    email?: string;
    invitedBy?: string | null;
    expiresAt?: Date;
    acceptedAt?: Date | null;
    revokedAt?: Date | null;
  },
) {
  return db
    .insertInto("group_invitations")
    .values({
      group_id: options.groupId,
      email: options.email ?? `invitee-${tag()}@example.com`,
      invited_by: options.invitedBy ?? null,
      expires_at: options.expiresAt ?? new Date(Date.now() + 30 * 86_400_000),
      accepted_at: options.acceptedAt ?? null,
      revoked_at: options.revokedAt ?? null,
    })
    .returning(["id", "group_id", "email", "expires_at"])
    .executeTakeFirstOrThrow();
}

export type BulkStorytellerOptions = {
  ownerId: string;
  count: number;
  /** Each schedule's next send falls at a random time within this many days from now (default 30). */
  nextSendWithinDays?: number;
};

/**
 * Many email Storytellers with daily schedules, in one statement whatever the count (for query
 * plans over 20,000 schedules, past the bind-parameter limit of `createStorytellers`). No prompts.
 */
export async function createStorytellersInBulk(db: DbOrTx, options: BulkStorytellerOptions) {
  const { rows } = await sql<{ id: string }>`
    with made as (
      insert into storytellers (owner_id, nickname, first_name, delivery_method, email, time_zone)
      select ${options.ownerId}::uuid, 'Nana', 'Nana', 'email', 'bulk-' || gen_random_uuid() || '@example.com', 'UTC'
      from generate_series(1, ${options.count}::int)
      returning id
    )
    insert into schedules (storyteller_id, first_prompt_date, frequency, next_send_at)
    select id, '2026-01-01', 'daily', now() + random() * ${options.nextSendWithinDays ?? 30}::int * interval '1 day'
    from made
    returning storyteller_id as id
  `.execute(db);
  return rows;
}

export type PhoneRecordingOptions = {
  storytellerId: string;
  promptId: string;
  /** Default "pending": recorded, the caller not yet decided (the review menu). */
  status?: "pending" | "kept" | "discarded";
  /** The call is over (Twilio's status callback came). */
  ended?: boolean;
  /** With `storage`, the recording is where the phone simulator keeps it (as Twilio would). */
  storage?: StorageService;
  audio?: Uint8Array;
};

/** A call in to answer `promptId` with one recording (decision 022), as the voice webhook leaves them. */
export async function createPhoneRecording(db: DbOrTx, options: PhoneRecordingOptions) {
  const callSid = `CA${randomBytes(16).toString("hex")}`;
  const recordingSid = `RE${randomBytes(16).toString("hex")}`;
  await db
    .insertInto("phone_calls")
    .values({
      call_sid: callSid,
      direction: "inbound",
      caller_e164: "+15555550123",
      called_e164: "+15555550100",
      storyteller_id: options.storytellerId,
      prompt_id: options.promptId,
      ended_at: options.ended ? new Date() : null,
    })
    .execute();
  if (options.storage)
    await options.storage.put(
      storageKeys.phoneSimulatorRecording(recordingSid),
      options.audio ?? new Uint8Array([0x52, 0x49, 0x46, 0x46]),
      "audio/wav",
    );
  const recording = await db
    .insertInto("phone_recordings")
    .values({
      recording_sid: recordingSid,
      call_sid: callSid,
      prompt_id: options.promptId,
      status: options.status ?? "pending",
      duration_seconds: 3,
    })
    .returning(["id", "recording_sid", "call_sid"])
    .executeTakeFirstOrThrow();
  return recording;
}

/** A call-out Twilio has placed, as the `outbound` step records it (phone_calls), for voice tests. */
export async function createOutboundCall(
  db: DbOrTx,
  call: { callSid: string; to: string; from: string; storytellerId: string; promptId: string; language: "en" | "hi" },
) {
  await db
    .insertInto("phone_calls")
    .values({
      call_sid: call.callSid,
      direction: "outbound",
      caller_e164: call.to,
      called_e164: call.from,
      storyteller_id: call.storytellerId,
      prompt_id: call.promptId,
      language: call.language,
    })
    .execute();
}
