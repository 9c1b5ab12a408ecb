import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { sql } from "kysely";
import twilio from "twilio";
import { afterAll, describe, expect, it } from "vitest";
import type { AppContext } from "~/context.server";
import { watchLogs } from "~/services/logger.server";
import { storageKeys } from "~/services/storage-keys";
import { signCapability, signPhonePlayback } from "~/services/tokens.server";
import { AddGroupIntent } from "~/utils/group-choices";
import { BellIntent } from "~/utils/notifications";
import { postRefusal } from "../../server/security";
import { silentWav } from "../../tests/audio-fixtures";
import { makeTestContext, routeArgs } from "../../tests/context";
import { CookieJar } from "../../tests/cookie-jar";
import { get, outcome, signedInUser } from "../../tests/dashboard-routes";
import { useTestDatabase } from "../../tests/db";
import {
  createAnswer,
  createGroup,
  createGroupInvitation,
  createPrompt,
  createSentEmail,
  createShareLink,
  createSelfStoryteller,
  createStoryteller,
  createUser,
} from "../../tests/factories";
import { Intent as WordsIntent } from "./dashboard.answers.$answerId.words/intents";
import { Intent as GroupIntent } from "./dashboard.groups.$id/intents";
import { Intent as MyStoriesIntent } from "./dashboard.mystories/intents";
import { Intent as OwnRecordIntent } from "./dashboard.mystories_.record.$promptId/schema";
import { Intent as NotificationsIntent } from "./dashboard.notifications/intents";
import { Intent as OnboardingIntent } from "./dashboard.onboarding/intents";
import { Intent as StorytellerIntent } from "./dashboard.recipient.$id/intents";
import { Intent as EditIntent } from "./dashboard.recipient.$id_.edit/intents";
import { Intent as KeepIntent } from "./dashboard.recipient.$id_.keep/schema";
import { Intent as AccountIntent } from "./dashboard.user.account/intents";
import { PhoneIntent } from "./dev.outbox/intents";
import { Intent as RecordIntent } from "./record.$token/schema";

// "Never a 500 for bad input", over every form and every address that takes input. Each route
// module under app/routes is in the table below (a new one without an entry fails the first test);
// each form is posted, run after run, with one field (or URL parameter) replaced by something
// hostile: NUL and other control characters, lone surrogates, 10 KB of text, right-to-left
// overrides, HTML, numbers past any integer column, dates that do not exist or lie centuries away;
// or the field left out, or sent twice. Whatever comes, the answer is never a 5xx nor an error log;
// a refusal stores nothing (every table is the same before and after); and what it says is a
// message in English and Hindi, one at least when a field the person fills in was refused.

const database = useTestDatabase();
afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

const APP_URL = "http://localhost:3000";
const TWILIO_TOKEN = "auth-token-1234567890";
const WEBHOOK_SECRET = "webhook-secret-123456";
/** No rate limit: the runs reach the checks behind it. */
const unlimited = { rateLimit: async () => ({ allowed: true as const }) };
const context = (env: Record<string, string> = {}) => makeTestContext(database, env, unlimited);
const twilioContext = () =>
  context({
    TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM_NUMBER: "+15555550100",
  });
const postmarkContext = () => context({ POSTMARK_WEBHOOK_SECRET: WEBHOOK_SECRET });
const whatsappContext = () =>
  context({
    TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM_NUMBER: "+15555550100",
    TWILIO_WHATSAPP_FROM: "+15555550100",
    TWILIO_WHATSAPP_CONTENT_SID_EN: "HX" + "e".repeat(32),
    TWILIO_WHATSAPP_CONTENT_SID_HI: "HX" + "4".repeat(32),
  });

// ---------------------------------------------------------------------------------------------
// What is thrown at the fields.

const controlCharacter = fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const nastyUnit = fc.oneof(
  controlCharacter.map((c) => String.fromCharCode(c)),
  loneSurrogate,
  fc.constantFrom("\u202e", "\u202d", "\u2066", "\u200f", "\ufeff", "<", ">", "&", '"', "'", "%00", "\\"),
  fc.constantFrom("क", "ि", "़", "👩‍👧", "𝔘", "ﷺ"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);
const pad = (n: number, width: number) =>
  n < 0 ? `-${String(-n).padStart(width, "0")}` : String(n).padStart(width, "0");

const hostileText = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "Nani\u0000",
    "\ud800",
    "Nani\udfff",
    "\u202egnp.exe\u202c",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "'; drop table users; --",
    "",
    " ",
    "\t\r\n",
    "x".repeat(10_240),
    "क".repeat(5_000),
    "null",
    "undefined",
    "[object Object]",
    "../../etc/passwd",
    "javascript:alert(1)",
    "//evil.example/",
    "a@b",
    "nani@example.com\u0000",
    "+1 555 555 0123\u0000",
  ),
  fc.string({ unit: nastyUnit, minLength: 1, maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 60 }),
);

const hostileNumber = fc.oneof(
  fc.constantFrom(
    "2147483648",
    "99999999999999999999",
    "9223372036854775808",
    "-1",
    "0",
    "1e3",
    "1.5",
    "NaN",
    "Infinity",
    "0x10",
  ),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double().map(String),
  fc.integer().map(String),
);

const hostileDate = fc.oneof(
  fc.constantFrom(
    "2027-02-30",
    "2027-02-29",
    "2026-13-01",
    "2026-00-10",
    "0000-01-01",
    "2226-01-01",
    "1826-01-01",
    "99999-01-01",
    "2026-1-1",
    "2026-01-01T10:00",
  ),
  fc
    .tuple(fc.integer({ min: -10, max: 99_999 }), fc.integer({ min: -1, max: 13 }), fc.integer({ min: -1, max: 32 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc
    .date({ noInvalidDate: false })
    .map((d) => (Number.isNaN(d.getTime()) ? "Invalid Date" : d.toISOString().slice(0, 10))),
);

const hostileValue = fc.oneof({ weight: 3, arbitrary: hostileText }, hostileNumber, hostileDate);

/** One change to an otherwise valid post: a field replaced, left out, or sent twice. */
type Mutation = { kind: "replace" | "remove" | "repeat"; value: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Mutation["kind"]>("replace", "replace", "replace", "remove", "repeat"),
  value: hostileValue,
});

// ---------------------------------------------------------------------------------------------
// The table: every route module, its forms and its loader.

type Fields = Record<string, string | string[]>;
type Prepared = {
  /** Path and query the request goes to. */
  path: string;
  params?: Record<string, string>;
  fields: Fields;
  /** The signed-in user's cookies (none: signed out). */
  jar?: CookieJar;
  /** Builds the request itself (webhooks: JSON, signed). */
  request?: (url: string, fields: Fields) => Promise<Request>;
  /** A file the form sends (then multipart, as a browser posts it); the target "file" changes it. */
  file?: UploadedFile;
  context?: () => AppContext;
};

type UploadedFile = { field: string; bytes: Uint8Array; name: string; type: string };

type FormCase = {
  name: string;
  prepare: () => Promise<Prepared>;
  /** Fields a person fills in or picks: refusing one says what is wrong. */
  typed?: string[];
  /** Hidden fields and button values: a bare 400 or a 404 is answer enough. */
  hidden?: string[];
  /** URL parameters fuzzed as well. */
  params?: string[];
  /** The translation namespace of a page-shaped refusal ({ error } / { sendError }), not conform's reply. */
  namespace?: string;
  /**
   * conform field lists the page posts as `name[0]`, `name[1]`…: also posted under the bare name,
   * and a reply must echo them as a list (the page's list throws on anything else).
   */
  lists?: string[];
  /** The unmodified post's status when it is not a success (a page that takes no post). */
  control?: number;
};

type LoaderCase = {
  prepare: () => Promise<{
    path: string;
    params?: Record<string, string>;
    jar?: CookieJar;
    context?: () => AppContext;
  }>;
  params?: string[];
  /** Query parameters the loader reads (every loader also gets unknown ones). */
  query?: string[];
};

type Entry = { forms?: FormCase[]; loader?: LoaderCase; none?: string };

const signedOut = async (pathname: string) => ({ path: pathname });
const signedIn = async (pathname: string) => ({ path: pathname, jar: (await signedInUser(database)).jar });

/** An owner with a Storyteller, a queued and a sent prompt, an answer and a group around them. */
async function family() {
  const owner = await signedInUser(database);
  const ownerRow = await database.db
    .selectFrom("users")
    .select("nickname")
    .where("id", "=", owner.id)
    .executeTakeFirstOrThrow();
  const storyteller = await createStoryteller(database.db, {
    ownerId: owner.id,
    prompts: ["What was your first home like?", "Who taught you to cook?"],
  });
  const sent = await createPrompt(database.db, {
    storytellerId: storyteller.id,
    sentAt: new Date(),
    createdBy: owner.id,
  });
  const answer = await createAnswer(database.db, { storytellerId: storyteller.id, promptId: sent.id });
  const member = await createUser(database.db);
  const group = await createGroup(database.db, {
    ownerId: owner.id,
    storytellerId: storyteller.id,
    collaborators: [member.id],
  });
  const invitation = await createGroupInvitation(database.db, { groupId: group.id, invitedBy: owner.id });
  return {
    owner,
    nickname: ownerRow.nickname,
    storyteller,
    queued: storyteller.prompts[0],
    sent,
    answer,
    member,
    group,
    invitation,
  };
}

const storytellerFields = (overrides: Fields = {}): Fields => ({
  nickname: "Nani",
  firstName: "Kamla",
  relationship: "Grandmother",
  deliveryMethod: "email",
  email: "nani@example.com",
  phone: "",
  callConsent: "on",
  timeZone: "Asia/Kolkata",
  language: "hi",
  ...overrides,
});
const nextWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
const scheduleFields = (): Fields => ({ firstPromptDate: nextWeek(), frequency: "weekly" });
const STORYTELLER_TYPED = [
  "nickname",
  "firstName",
  "relationship",
  "deliveryMethod",
  "email",
  "phone",
  "callConsent",
  "timeZone",
  "language",
];
const SCHEDULE_TYPED = ["firstPromptDate", "frequency"];

async function libraryIds() {
  const rows = await database.db.selectFrom("library_prompts").select("id").orderBy("id").limit(2).execute();
  return rows.map((r) => String(r.id));
}

/** Onboarding with step 1 (and 2) already done, as the wizard keeps them. */
async function onboardingAt(step: 2 | 3) {
  const user = await signedInUser(database);
  const who = { ...storytellerFields(), phone: undefined };
  const draft =
    step === 3 ? { who, prompts: { libraryPromptIds: [], customPrompts: ["What was school like?"] } } : { who };
  await database.db
    .insertInto("onboarding_drafts")
    .values({ user_id: user.id, data: JSON.stringify(draft) })
    .execute();
  return user;
}

async function twilioRequest(url: string, fields: Fields) {
  const params = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, [v].flat().join(",")]));
  const { pathname, search } = new URL(url);
  const signature = twilio.getExpectedTwilioSignature(TWILIO_TOKEN, `${APP_URL}${pathname}${search}`, params);
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
    body,
  });
}

/** A 1×1 PNG, for the profile photo. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const recordToken = async (promptId: string) => signCapability(context().config, "record", promptId);

/** A listen link (a book's QR code) to the family's answer, and its token. */
async function listenToken() {
  const f = await family();
  const link = await database.db
    .insertInto("listen_links")
    .values({ answer_id: f.answer.id, created_by_user_id: f.owner.id })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ...f, linkId: link.id, token: await signCapability(context().config, "listen", link.id) };
}

/** The family, its answer's audio stored (an export and a book read it). */
async function keptFamily() {
  const f = await family();
  const answer = await createAnswer(database.db, {
    storytellerId: f.storyteller.id,
    storage: context().storage,
    audio: silentWav(1),
    contentType: "audio/wav",
    transcript: "We lit clay lamps at Diwali.",
    transcriptStatus: "done",
  });
  return { ...f, kept: answer };
}

const VOICE_NUMBER = "+15555550100";
const voiceContext = () =>
  context({
    TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM_NUMBER: VOICE_NUMBER,
    TWILIO_VOICE_NUMBER: VOICE_NUMBER,
  });
const callSid = () => "CA" + crypto.randomUUID().replaceAll("-", "");

/** A call in progress, past the code: its Storyteller and question known (as the webhook keeps it). */
async function callInProgress() {
  const f = await family();
  const sid = callSid();
  await database.db
    .insertInto("phone_calls")
    .values({
      call_sid: sid,
      direction: "inbound",
      caller_e164: "+15555550123",
      called_e164: VOICE_NUMBER,
      storyteller_id: f.storyteller.id,
      prompt_id: f.sent.id,
      language: "hi",
    })
    .execute();
  return { ...f, sid, base: { CallSid: sid, From: "+15555550123", To: VOICE_NUMBER } };
}

const routes: Record<string, Entry> = {
  _public: { loader: { prepare: () => signedOut("/") } },
  "_public.$": {
    forms: [
      {
        name: "any post",
        prepare: async () => ({ path: "/no-such-page", params: { "*": "no-such-page" }, fields: { x: "1" } }),
        control: 404,
        hidden: ["x"],
        params: ["*"],
      },
    ],
    loader: { prepare: () => signedOut("/no-such-page"), params: ["*"] },
  },
  "_public.$page": {
    loader: { prepare: async () => ({ path: "/about-us", params: { page: "about-us" } }), params: ["page"] },
  },
  "_public.404": { loader: { prepare: () => signedOut("/404") } },
  "_public.500": { loader: { prepare: () => signedOut("/500") } },
  "_public._index": { loader: { prepare: () => signedOut("/") } },
  "_public.auth.login": {
    forms: [
      {
        name: "sign in",
        prepare: async () => ({
          path: "/auth/login",
          fields: { email: `in-${Date.now()}@example.com`, redirectTo: "/dashboard/kanban" },
        }),
        typed: ["email"],
        hidden: ["redirectTo"],
      },
    ],
    loader: { prepare: () => signedOut("/auth/login"), query: ["redirectTo", "error"] },
  },
  "_public.auth.register": {
    forms: [
      {
        name: "register",
        prepare: async () => ({
          path: "/auth/register",
          fields: {
            firstName: "Asha",
            lastName: "Rao",
            nickname: "asha",
            email: `new-${Date.now()}-${Math.random()}@example.com`,
            redirectTo: "/dashboard",
          },
        }),
        typed: ["firstName", "lastName", "nickname", "email"],
        hidden: ["redirectTo"],
      },
    ],
    loader: { prepare: () => signedOut("/auth/register"), query: ["firstName", "email", "redirectTo"] },
  },
  "_public.auth.reset-password": {
    forms: [
      {
        name: "send a code",
        prepare: async () => ({ path: "/auth/reset-password", fields: { email: "reset@example.com" } }),
        typed: ["email"],
      },
    ],
    loader: { prepare: () => signedOut("/auth/reset-password") },
  },
  "_public.auth.verify": {
    forms: [
      {
        name: "enter the code",
        prepare: async () => ({ path: "/auth/verify", fields: { code: "123456", email: "v@example.com" } }),
        typed: ["code", "email"],
      },
    ],
    loader: { prepare: () => signedOut("/auth/verify") },
  },
  "_public.contact-us": {
    forms: [
      {
        name: "contact",
        prepare: async () => ({
          path: "/contact-us",
          fields: { name: "Asha", email: "asha@example.com", message: "Hello there, a question." },
        }),
        typed: ["name", "email", "message"],
      },
    ],
    loader: { prepare: () => signedOut("/contact-us") },
  },
  "_public.invitations.$token": {
    forms: [
      {
        name: "accept",
        prepare: async () => {
          // Someone invited by their own address, signed in as it.
          const f = await family();
          const invitee = await signedInUser(database);
          const { email } = await database.db
            .selectFrom("users")
            .select("email")
            .where("id", "=", invitee.id)
            .executeTakeFirstOrThrow();
          const invitation = await createGroupInvitation(database.db, {
            groupId: f.group.id,
            invitedBy: f.owner.id,
            email,
          });
          const token = await signCapability(context().config, "group-invite", invitation.id);
          return { path: `/invitations/${token}`, params: { token }, fields: {}, jar: invitee.jar };
        },
        params: ["token"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        const token = await signCapability(context().config, "group-invite", f.invitation.id);
        return { path: `/invitations/${token}`, params: { token } };
      },
      params: ["token"],
    },
  },
  "_public.registered-texts": { loader: { prepare: () => signedOut("/registered-texts") } },
  "api.user": { loader: { prepare: () => signedIn("/api/user") } },
  "auth.google": {
    forms: [
      {
        name: "continue with Google",
        prepare: async () => ({ path: "/auth/google", fields: { x: "" } }),
        // Google is not configured here: the button is not shown, and a post finds no such page.
        control: 404,
        hidden: ["x"],
      },
    ],
    loader: { prepare: () => signedOut("/auth/google") },
  },
  "auth.google.callback": {
    loader: { prepare: () => signedOut("/auth/google/callback"), query: ["code", "state", "error"] },
  },
  "auth.logout": {
    forms: [
      {
        name: "log out",
        prepare: async () => ({ path: "/auth/logout", fields: { x: "" }, jar: (await signedInUser(database)).jar }),
        hidden: ["x"],
      },
    ],
    loader: { prepare: () => signedOut("/auth/logout") },
  },
  "auth.magic-link": {
    loader: { prepare: () => signedOut("/auth/magic-link"), query: ["token", "code", "email", "f"] },
  },
  dashboard: { loader: { prepare: () => signedIn("/dashboard") } },
  "dashboard.$": {
    loader: {
      prepare: async () => ({ ...(await signedIn("/dashboard/nowhere")), params: { "*": "nowhere" } }),
      params: ["*"],
    },
  },
  "dashboard._index": { loader: { prepare: () => signedIn("/dashboard") } },
  "dashboard.groups.$id": {
    forms: [
      {
        name: "rename",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/groups/${f.group.id}`,
            params: { id: f.group.id },
            fields: { intent: GroupIntent.update, name: "Family", description: "All of us who love Nani" },
            jar: f.owner.jar,
          };
        },
        typed: ["name", "description"],
        hidden: ["intent"],
        params: ["id"],
      },
      {
        name: "remove a member",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/groups/${f.group.id}`,
            params: { id: f.group.id },
            fields: { intent: GroupIntent.remove, memberId: f.member.id, confirm: "yes" },
            jar: f.owner.jar,
          };
        },
        hidden: ["intent", "memberId", "confirm"],
      },
      {
        name: "revoke an invitation",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/groups/${f.group.id}`,
            params: { id: f.group.id },
            fields: { intent: GroupIntent.revoke, invitationId: f.invitation.id, confirm: "yes" },
            jar: f.owner.jar,
          };
        },
        hidden: ["intent", "invitationId", "confirm"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: `/dashboard/groups/${f.group.id}`, params: { id: f.group.id }, jar: f.owner.jar };
      },
      params: ["id"],
      query: ["confirm", "target"],
    },
  },
  "dashboard.groups.new": {
    forms: [
      {
        name: "step 1: the group",
        prepare: async () => ({
          path: "/dashboard/groups/new?step=1",
          fields: { intent: AddGroupIntent.next, name: "Family", description: "All of us who love Nani" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["name", "description"],
        hidden: ["intent"],
      },
      {
        name: "step 2: a new Storyteller",
        prepare: async () => ({
          path: "/dashboard/groups/new?step=2",
          fields: { intent: AddGroupIntent.create, ...storytellerFields(), ...scheduleFields() },
          jar: (await signedInUser(database)).jar,
        }),
        typed: [...STORYTELLER_TYPED, ...SCHEDULE_TYPED],
        hidden: ["intent"],
      },
      {
        name: "step 2: one of mine",
        prepare: async () => {
          const f = await family();
          return {
            path: "/dashboard/groups/new?step=2&dialog=1",
            fields: { intent: AddGroupIntent.pick, storytellerId: f.storyteller.id },
            jar: f.owner.jar,
          };
        },
        typed: ["storytellerId"],
        hidden: ["intent"],
      },
      {
        name: "step 3: invitations",
        prepare: async () => ({
          path: "/dashboard/groups/new?step=3",
          // As the page posts it: conform's list names.
          fields: { intent: AddGroupIntent.more, "emails[0]": "a@example.com", "emails[1]": "" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["emails[0]", "emails[1]"],
        hidden: ["intent"],
        lists: ["emails"],
      },
    ],
    loader: { prepare: () => signedIn("/dashboard/groups/new"), query: ["step", "more", "dialog"] },
  },
  "dashboard.keep": { loader: { prepare: () => signedIn("/dashboard/keep") } },
  "dashboard.answers.$answerId.words": {
    forms: [
      {
        name: "correct the words",
        prepare: async () => {
          const f = await family();
          const heard = "We lived by the river.";
          const prompt = await createPrompt(database.db, { storytellerId: f.storyteller.id, sentAt: new Date() });
          const answer = await createAnswer(database.db, {
            storytellerId: f.storyteller.id,
            promptId: prompt.id,
            transcript: heard,
            transcriptStatus: "done",
          });
          return {
            path: `/dashboard/answers/${answer.id}/words`,
            params: { answerId: answer.id },
            fields: {
              intent: WordsIntent.save,
              version: createHash("md5").update(heard).digest("hex"),
              text: "We lived by the Ganga.",
            },
            jar: f.owner.jar,
          };
        },
        typed: ["text"],
        hidden: ["intent", "version"],
        params: ["answerId"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: `/dashboard/answers/${f.answer.id}/words`, params: { answerId: f.answer.id }, jar: f.owner.jar };
      },
      params: ["answerId"],
    },
  },
  "dashboard.kanban": { loader: { prepare: () => signedIn("/dashboard/kanban") } },
  "dashboard.mystories": {
    forms: [
      {
        name: "record a library question",
        prepare: async () => ({
          path: "/dashboard/mystories",
          fields: { intent: MyStoriesIntent.recordLibrary, libraryPromptId: (await libraryIds())[0] },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["libraryPromptId"],
        hidden: ["intent"],
      },
      {
        name: "record a title of my own",
        prepare: async () => ({
          path: "/dashboard/mystories",
          fields: { intent: MyStoriesIntent.recordTitle, title: "The summer of the flood" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["title"],
        hidden: ["intent"],
      },
      {
        name: "privacy and delete buttons",
        prepare: async () => {
          // One of my own stories (My Stories lists no one else's).
          const user = await signedInUser(database);
          const me = await database.db
            .selectFrom("users")
            .select(["id", "email", "first_name"])
            .where("id", "=", user.id)
            .executeTakeFirstOrThrow();
          const self = await createSelfStoryteller(database.db, me);
          const prompt = await createPrompt(database.db, { storytellerId: self.id, sentAt: new Date() });
          const answer = await createAnswer(database.db, { storytellerId: self.id, promptId: prompt.id });
          return {
            path: "/dashboard/mystories",
            fields: { intent: MyStoriesIntent.privacy, answerId: answer.id, private: "1" },
            jar: user.jar,
          };
        },
        hidden: ["intent", "answerId", "private"],
      },
    ],
    loader: { prepare: () => signedIn("/dashboard/mystories") },
  },
  "dashboard.mystories_.record.$promptId": {
    forms: [
      {
        name: "opened",
        prepare: async () => {
          const user = await signedInUser(database);
          const me = await database.db
            .selectFrom("users")
            .select(["id", "email", "first_name"])
            .where("id", "=", user.id)
            .executeTakeFirstOrThrow();
          const self = await createStoryteller(database.db, { ownerId: user.id, email: me.email, prompts: [] });
          await database.db.updateTable("storytellers").set({ is_self: true }).where("id", "=", self.id).execute();
          const prompt = await createPrompt(database.db, {
            storytellerId: self.id,
            createdBy: user.id,
            sentAt: new Date(),
          });
          return {
            path: `/dashboard/mystories/record/${prompt.id}`,
            params: { promptId: prompt.id },
            fields: { intent: OwnRecordIntent.opened },
            jar: user.jar,
          };
        },
        hidden: ["intent"],
        params: ["promptId"],
        namespace: "record",
      },
      {
        name: "a recording without JavaScript",
        prepare: async () => {
          const f = await family();
          // A question whose link went to the owner's own address is one they answer from My Stories.
          const me = await database.db
            .selectFrom("users")
            .select("email")
            .where("id", "=", f.owner.id)
            .executeTakeFirstOrThrow();
          await database.db
            .updateTable("storytellers")
            .set({ email: me.email })
            .where("id", "=", f.storyteller.id)
            .execute();
          const prompt = await createPrompt(database.db, { storytellerId: f.storyteller.id, sentAt: new Date() });
          await createSentEmail(database.db, { promptId: prompt.id, to: me.email });
          const file = { field: "audio", bytes: silentWav(1), name: "story.wav", type: "audio/wav" };
          return {
            path: `/dashboard/mystories/record/${prompt.id}`,
            params: { promptId: prompt.id },
            fields: {},
            file,
            jar: f.owner.jar,
          };
        },
        typed: ["file"],
        namespace: "record",
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: `/dashboard/mystories/record/${f.sent.id}`, params: { promptId: f.sent.id }, jar: f.owner.jar };
      },
      params: ["promptId"],
      query: ["submitted"],
    },
  },
  "dashboard.notifications": {
    forms: [
      {
        name: "mark all read",
        prepare: async () => ({
          path: "/dashboard/notifications",
          fields: { intent: NotificationsIntent.markAllRead },
          jar: (await signedInUser(database)).jar,
        }),
        hidden: ["intent"],
      },
    ],
    loader: { prepare: () => signedIn("/dashboard/notifications") },
  },
  "dashboard.onboarding": {
    forms: [
      {
        name: "step 1: who",
        prepare: async () => ({
          path: "/dashboard/onboarding?step=1",
          fields: { intent: OnboardingIntent.next, ...storytellerFields() },
          jar: (await signedInUser(database)).jar,
        }),
        typed: STORYTELLER_TYPED,
        hidden: ["intent"],
      },
      {
        name: "step 1: who, by phone call",
        prepare: async () => ({
          path: "/dashboard/onboarding?step=1",
          fields: {
            intent: OnboardingIntent.next,
            ...storytellerFields({ deliveryMethod: "call", phone: "(416) 555-0199" }),
          },
          jar: (await signedInUser(database)).jar,
        }),
        typed: STORYTELLER_TYPED,
        hidden: ["intent"],
      },
      {
        name: "step 2: questions",
        prepare: async () => ({
          path: "/dashboard/onboarding?step=2",
          fields: {
            intent: OnboardingIntent.next,
            libraryPromptIds: await libraryIds(),
            customPrompts: "What was school like?\nWho was your best friend?",
          },
          jar: (await onboardingAt(2)).jar,
        }),
        typed: ["libraryPromptIds", "customPrompts"],
        hidden: ["intent"],
      },
      {
        name: "step 3: schedule",
        prepare: async () => ({
          path: "/dashboard/onboarding?step=3",
          fields: { intent: OnboardingIntent.submit, ...scheduleFields() },
          jar: (await onboardingAt(3)).jar,
        }),
        typed: SCHEDULE_TYPED,
        hidden: ["intent"],
      },
    ],
    loader: { prepare: () => signedIn("/dashboard/onboarding"), query: ["step"] },
  },
  "dashboard.recipient.$id": {
    forms: [
      {
        name: "edit a queued question",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}?edit=${f.queued.id}`,
            params: { id: f.storyteller.id },
            fields: { intent: StorytellerIntent.edit, promptId: f.queued.id, text: "Where did you grow up?" },
            jar: f.owner.jar,
          };
        },
        typed: ["text"],
        hidden: ["intent", "promptId"],
        params: ["id"],
      },
      {
        name: "drag a question",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}`,
            params: { id: f.storyteller.id },
            fields: { intent: StorytellerIntent.place, promptId: f.queued.id, beforeId: "" },
            jar: f.owner.jar,
          };
        },
        hidden: ["intent", "promptId", "beforeId"],
      },
      {
        name: "share an answer",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}`,
            params: { id: f.storyteller.id },
            fields: { intent: StorytellerIntent.answerShare, answerId: f.answer.id, js: "1" },
            jar: f.owner.jar,
          };
        },
        hidden: ["intent", "answerId", "js"],
      },
      {
        name: "delete an answer",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}`,
            params: { id: f.storyteller.id },
            fields: { intent: StorytellerIntent.answerDelete, answerId: f.answer.id, confirm: "on" },
            jar: f.owner.jar,
          };
        },
        hidden: ["intent", "answerId", "confirm"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: `/dashboard/recipient/${f.storyteller.id}`, params: { id: f.storyteller.id }, jar: f.owner.jar };
      },
      params: ["id"],
      query: ["sent", "edit", "delete"],
    },
  },
  "dashboard.recipient.$id_.edit": {
    forms: [
      {
        name: "edit a Storyteller",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}/edit`,
            params: { id: f.storyteller.id },
            fields: { intent: EditIntent.update, ...storytellerFields(), ...scheduleFields() },
            jar: f.owner.jar,
          };
        },
        typed: [...STORYTELLER_TYPED, ...SCHEDULE_TYPED],
        hidden: ["intent"],
        params: ["id"],
      },
      {
        name: "switch a Storyteller to phone calls",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}/edit`,
            params: { id: f.storyteller.id },
            fields: {
              intent: EditIntent.update,
              ...storytellerFields({ deliveryMethod: "call", phone: "(416) 555-0199" }),
              ...scheduleFields(),
            },
            jar: f.owner.jar,
          };
        },
        typed: [...STORYTELLER_TYPED, ...SCHEDULE_TYPED],
        hidden: ["intent"],
        params: ["id"],
      },
      {
        name: "delete a Storyteller",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}/edit`,
            params: { id: f.storyteller.id },
            fields: { intent: EditIntent.delete, confirm: "on" },
            jar: f.owner.jar,
          };
        },
        typed: ["confirm"],
        hidden: ["intent"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return {
          path: `/dashboard/recipient/${f.storyteller.id}/edit`,
          params: { id: f.storyteller.id },
          jar: f.owner.jar,
        };
      },
      params: ["id"],
    },
  },
  "dashboard.recipient.$id_.keep": {
    forms: [
      {
        name: "make a book",
        prepare: async () => {
          const f = await keptFamily();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}/keep`,
            params: { id: f.storyteller.id },
            fields: {
              intent: KeepIntent.book,
              title: "Nani's stories",
              paper: "a4",
              cover: "none",
              language: "en",
              include: [f.kept.id, f.answer.id],
              [`position-${f.kept.id}`]: "2",
              [`position-${f.answer.id}`]: "1",
            },
            jar: f.owner.jar,
          };
        },
        typed: ["title", "paper", "cover", "language", "include"],
        hidden: ["intent"],
        params: ["id"],
      },
      {
        name: "stop a listen link",
        prepare: async () => {
          const f = await listenToken();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}/keep`,
            params: { id: f.storyteller.id },
            fields: { intent: KeepIntent.revokeLink, linkId: f.linkId },
            jar: f.owner.jar,
          };
        },
        hidden: ["intent", "linkId"],
        params: ["id"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return {
          path: `/dashboard/recipient/${f.storyteller.id}/keep`,
          params: { id: f.storyteller.id },
          jar: f.owner.jar,
        };
      },
      params: ["id"],
    },
  },
  "dashboard.recipient.$id_.prompts.new": {
    forms: [
      {
        name: "add questions",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}/prompts/new`,
            params: { id: f.storyteller.id },
            fields: { libraryPromptIds: await libraryIds(), customPrompts: "What games did you play?" },
            jar: f.owner.jar,
          };
        },
        typed: ["libraryPromptIds", "customPrompts"],
        params: ["id"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return {
          path: `/dashboard/recipient/${f.storyteller.id}/prompts/new`,
          params: { id: f.storyteller.id },
          jar: f.owner.jar,
        };
      },
      params: ["id"],
    },
  },
  "dashboard.testpage": {
    forms: [
      {
        name: "send a test",
        prepare: async () => ({
          path: "/dashboard/testpage",
          fields: { channel: "sms", phone: "+1 416 555 0199" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["channel", "phone"],
      },
    ],
    loader: { prepare: () => signedIn("/dashboard/testpage") },
  },
  "dashboard.search": {
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: "/dashboard/search?q=river", jar: f.owner.jar };
      },
      query: ["q"],
    },
  },
  "dashboard.timeline": {
    forms: [
      {
        name: "send a heart",
        prepare: async () => {
          const f = await keptFamily();
          return {
            path: "/dashboard/timeline?index",
            fields: { intent: "heart", answerId: f.kept.id },
            jar: f.owner.jar,
          };
        },
        hidden: ["intent", "answerId"],
      },
      {
        name: "leave a note",
        prepare: async () => {
          const f = await keptFamily();
          return {
            path: "/dashboard/timeline?index",
            fields: { intent: "note", answerId: f.kept.id, note: "Lovely" },
            jar: f.owner.jar,
          };
        },
        typed: ["note"],
        hidden: ["intent", "answerId"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: "/dashboard/timeline", jar: f.owner.jar };
      },
      query: ["storyteller", "before"],
    },
  },
  "dashboard.user.$nickname.edit": {
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: `/dashboard/user/${f.nickname}/edit`, params: { nickname: f.nickname }, jar: f.owner.jar };
      },
      params: ["nickname"],
    },
  },
  "dashboard.user._index": { loader: { prepare: () => signedIn("/dashboard/user") } },
  "dashboard.user.account": {
    forms: [
      {
        name: "general settings",
        prepare: async () => ({
          path: "/dashboard/user/account",
          fields: {
            intent: AccountIntent.general,
            firstName: "Asha",
            lastName: "Rao",
            nickname: "asha",
            email: `acc-${Date.now()}-${Math.random()}@example.com`,
            language: "en",
            phone: "",
          },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["firstName", "lastName", "nickname", "email", "language", "phone"],
        hidden: ["intent"],
      },
      {
        name: "general settings with a photo",
        prepare: async () => ({
          path: "/dashboard/user/account",
          fields: {
            intent: AccountIntent.general,
            firstName: "Asha",
            lastName: "Rao",
            nickname: "asha",
            email: `photo-${Date.now()}-${Math.random()}@example.com`,
            language: "hi",
            phone: "",
          },
          file: { field: "photo", bytes: PNG, name: "me.png", type: "image/png" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["file", "firstName", "language"],
        hidden: ["intent"],
      },
      {
        name: "confirm a new email",
        prepare: async () => ({
          path: "/dashboard/user/account",
          fields: { intent: AccountIntent.confirmEmail, code: "123456" },
          jar: (await signedInUser(database)).jar,
        }),
        // No change of address waits for this code: the refusal in words is the control (a renamed
        // intent would be the out-of-date page's bare 400 instead, and fail the message check).
        control: 400,
        typed: ["code"],
        hidden: ["intent"],
      },
      {
        name: "notification settings",
        prepare: async () => ({
          path: "/dashboard/user/account",
          fields: { intent: AccountIntent.notifications, activity: "on", application: "on" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["activity", "application"],
        hidden: ["intent"],
      },
      {
        name: "time zone",
        prepare: async () => ({
          path: "/dashboard/user/account",
          fields: { intent: AccountIntent.timeZone, timeZone: "Asia/Kolkata" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["timeZone"],
        hidden: ["intent"],
      },
      {
        name: "delete the account",
        prepare: async () => ({
          path: "/dashboard/user/account",
          fields: { intent: AccountIntent.delete, confirm: "on" },
          jar: (await signedInUser(database)).jar,
        }),
        typed: ["confirm"],
        hidden: ["intent"],
      },
    ],
    loader: { prepare: () => signedIn("/dashboard/user/account") },
  },
  "dashboard.user.new": {
    forms: [
      {
        name: "invite someone",
        prepare: async () => {
          const f = await family();
          return {
            path: "/dashboard/user/new",
            fields: { email: `friend-${Date.now()}@example.com`, groupId: f.group.id },
            jar: f.owner.jar,
          };
        },
        typed: ["email", "groupId"],
      },
    ],
    loader: { prepare: () => signedIn("/dashboard/user/new") },
  },
  "dashboard.user.profile": { loader: { prepare: () => signedIn("/dashboard/user/profile") } },
  "dashboard_.keep.$id.download": {
    loader: {
      prepare: async () => {
        const user = await signedInUser(database);
        const key = `keepsakes/${crypto.randomUUID()}.zip`;
        await context().storage.put(key, new Uint8Array([0x50, 0x4b, 0x05, 0x06]), "application/zip");
        const row = await database.db
          .insertInto("keepsakes")
          .values({
            user_id: user.id,
            storyteller_id: null,
            kind: "export",
            status: "ready",
            progress: 100,
            options: JSON.stringify({}),
            storage_key: key,
            byte_size: 4,
            ready_at: new Date(),
            expires_at: new Date(Date.now() + 86_400_000),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        return { path: `/dashboard/keep/${row.id}/download`, params: { id: row.id }, jar: user.jar };
      },
      params: ["id"],
    },
  },
  "dashboard_.recipient.$id_.family-notes": {
    forms: [
      {
        name: "turn off the evening message",
        prepare: async () => {
          const f = await family();
          return {
            path: `/dashboard/recipient/${f.storyteller.id}/family-notes`,
            params: { id: f.storyteller.id },
            fields: { familyNotes: "off" },
            jar: f.owner.jar,
          };
        },
        hidden: ["familyNotes"],
        params: ["id"],
      },
    ],
  },
  "dashboard_.keep.export": {
    forms: [
      {
        name: "export a Storyteller's answers",
        prepare: async () => {
          const f = await keptFamily();
          return {
            path: "/dashboard/keep/export",
            fields: { scope: "storyteller", storytellerId: f.storyteller.id },
            jar: f.owner.jar,
          };
        },
        hidden: ["scope", "storytellerId"],
      },
      {
        name: "export everything I can hear",
        prepare: async () => {
          const f = await keptFamily();
          return { path: "/dashboard/keep/export", fields: { scope: "everything" }, jar: f.owner.jar };
        },
        hidden: ["scope"],
      },
    ],
  },
  "dev.outbox": {
    // A developer's stand-in for a texted reply (loopback only): a bare 400 will do.
    forms: [
      {
        name: "text back",
        prepare: async () => ({ path: "/dev/outbox", fields: { from: "+15555550123", body: "YES" } }),
        hidden: ["from", "body"],
      },
      {
        name: "pick up a call-out",
        prepare: async () => {
          const f = await family();
          const [message] = await database.db
            .insertInto("outbox_messages")
            .values({
              channel: "call",
              to_address: "+15555550123",
              text_body: "Call",
              status: "sent",
              provider: "simulator",
              provider_message_id: "CA" + "9".repeat(32),
            })
            .returning("id")
            .execute();
          await database.db
            .insertInto("deliveries")
            .values({ prompt_id: f.sent.id, channel: "call", status: "sent", outbox_message_id: message.id })
            .execute();
          return {
            path: "/dev/outbox?phone",
            fields: { intent: PhoneIntent.answer, messageId: message.id, answeredBy: "human" },
          };
        },
        hidden: ["intent", "messageId", "answeredBy"],
      },
    ],
    loader: { prepare: () => signedOut("/dev/outbox") },
  },
  healthz: { loader: { prepare: () => signedOut("/healthz") } },
  "l.$token": {
    loader: {
      prepare: async () => {
        const { token } = await listenToken();
        return { path: `/l/${token}`, params: { token } };
      },
      params: ["token"],
    },
  },
  "l.$token.audio": {
    loader: {
      prepare: async () => {
        const { token } = await listenToken();
        return { path: `/l/${token}/audio`, params: { token } };
      },
      params: ["token"],
    },
  },
  "l.$token.captions[.vtt]": {
    loader: {
      prepare: async () => {
        const { token } = await listenToken();
        return { path: `/l/${token}/captions.vtt`, params: { token } };
      },
      params: ["token"],
    },
  },
  "locales.$lng.$ns": {
    loader: {
      prepare: async () => ({ path: "/locales/hi/common", params: { lng: "hi", ns: "common" } }),
      params: ["lng", "ns"],
    },
  },
  maintenance: { loader: { prepare: () => signedOut("/maintenance") } },
  "media.answer.$answerId": {
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: `/media/answer/${f.answer.id}`, params: { answerId: f.answer.id }, jar: f.owner.jar };
      },
      params: ["answerId"],
      query: ["download"],
    },
  },
  "media.answer.$answerId.captions[.vtt]": {
    loader: {
      prepare: async () => {
        const f = await family();
        return {
          path: `/media/answer/${f.answer.id}/captions.vtt`,
          params: { answerId: f.answer.id },
          jar: f.owner.jar,
        };
      },
      params: ["answerId"],
    },
  },
  "media.profile.$userId": {
    loader: {
      prepare: async () => {
        const user = await signedInUser(database);
        return { path: `/media/profile/${user.id}`, params: { userId: user.id }, jar: user.jar };
      },
      params: ["userId"],
    },
  },
  "record.$token": {
    forms: [
      {
        name: "send to someone",
        prepare: async () => {
          const f = await family();
          const token = await recordToken(f.sent.id);
          return {
            path: `/record/${token}`,
            params: { token },
            fields: { intent: RecordIntent.sendToSomeone, to: "cousin@example.com" },
          };
        },
        typed: ["to"],
        hidden: ["intent"],
        params: ["token"],
        namespace: "record",
      },
      {
        name: "a recording without JavaScript",
        prepare: async () => {
          const f = await family();
          const token = await recordToken(f.sent.id);
          const file = { field: "audio", bytes: silentWav(1), name: "answer.wav", type: "audio/wav" };
          return { path: `/record/${token}`, params: { token }, fields: { private: "on" }, file };
        },
        typed: ["file"],
        hidden: ["private"],
        namespace: "record",
      },
      {
        name: "skip",
        prepare: async () => {
          const f = await family();
          const token = await recordToken(f.sent.id);
          return { path: `/record/${token}`, params: { token }, fields: { intent: RecordIntent.skip, confirm: "on" } };
        },
        hidden: ["intent", "confirm"],
        namespace: "record",
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        const token = await recordToken(f.sent.id);
        return { path: `/record/${token}`, params: { token } };
      },
      params: ["token"],
      query: ["submitted"],
    },
  },
  "phone.play.$token": {
    loader: {
      // Without Twilio (the simulator): the recording is in storage, so a valid token plays it.
      prepare: async () => {
        const call = await callInProgress();
        const recordingSid = "RE" + crypto.randomUUID().replaceAll("-", "");
        const ctx = context();
        await ctx.storage.put(storageKeys.phoneSimulatorRecording(recordingSid), silentWav(1), "audio/wav");
        const recording = await database.db
          .insertInto("phone_recordings")
          .values({ recording_sid: recordingSid, call_sid: call.sid, prompt_id: call.sent.id, duration_seconds: 1 })
          .returning("id")
          .executeTakeFirstOrThrow();
        const token = signPhonePlayback(ctx.config, { recordingId: recording.id, callSid: call.sid });
        return { path: `/phone/play/${token}`, params: { token } };
      },
      params: ["token"],
    },
  },
  "record.$token.audio": {
    loader: {
      prepare: async () => {
        const f = await family();
        const token = await recordToken(f.sent.id);
        return { path: `/record/${token}/audio`, params: { token } };
      },
      params: ["token"],
    },
  },
  "record.$token.photo": {
    loader: {
      prepare: async () => {
        const f = await family();
        const token = await recordToken(f.sent.id);
        return { path: `/record/${token}/photo`, params: { token } };
      },
      params: ["token"],
    },
  },
  "resources.language": {
    forms: [
      {
        name: "choose a language",
        prepare: async () => ({
          path: "/resources/language",
          fields: { lng: "hi", redirectTo: "/about-us" },
          jar: (await signedInUser(database)).jar,
        }),
        hidden: ["lng", "redirectTo"],
      },
    ],
    loader: { prepare: () => signedOut("/resources/language") },
  },
  "resources.time-zone": {
    forms: [
      {
        name: "the browser's time zone",
        prepare: async () => ({
          path: "/resources/time-zone",
          fields: { timeZone: "America/New_York" },
          jar: (await signedInUser(database)).jar,
        }),
        hidden: ["timeZone"],
      },
    ],
    loader: { prepare: () => signedOut("/resources/time-zone") },
  },
  "resources.notifications": {
    forms: [
      {
        name: "mark shown read",
        prepare: async () => ({
          path: "/resources/notifications",
          fields: { intent: BellIntent.markShown, id: [crypto.randomUUID()] },
          jar: (await signedInUser(database)).jar,
        }),
        hidden: ["intent", "id"],
      },
    ],
    loader: { prepare: () => signedIn("/resources/notifications") },
  },
  "resources.theme": {
    forms: [
      {
        name: "theme settings",
        prepare: async () => ({
          path: "/resources/theme",
          fields: { mode: "dark", textSize: "large", color: "default", redirectTo: "/" },
        }),
        hidden: ["mode", "textSize", "color", "redirectTo"],
      },
    ],
    loader: { prepare: () => signedOut("/resources/theme") },
  },
  "responses.$recipientId": {
    loader: {
      prepare: async () => {
        const f = await family();
        return { path: `/responses/${f.storyteller.id}`, params: { recipientId: f.storyteller.id }, jar: f.owner.jar };
      },
      params: ["recipientId"],
    },
  },
  "responses.register.$recipientId": {
    loader: {
      prepare: async () => {
        const f = await family();
        const t = await signCapability(context().config, "register", f.storyteller.id);
        return { path: `/responses/register/${f.storyteller.id}?t=${t}`, params: { recipientId: f.storyteller.id } };
      },
      params: ["recipientId"],
      query: ["t"],
    },
  },
  "s.$token": {
    loader: {
      prepare: async () => {
        const f = await family();
        const link = await createShareLink(database.db, { answerId: f.answer.id, createdBy: f.owner.id });
        const token = await signCapability(context().config, "share", link.id);
        return { path: `/s/${token}`, params: { token } };
      },
      params: ["token"],
    },
  },
  "s.$token.captions[.vtt]": {
    loader: {
      prepare: async () => {
        const f = await family();
        const link = await createShareLink(database.db, { answerId: f.answer.id, createdBy: f.owner.id });
        const token = await signCapability(context().config, "share", link.id);
        return { path: `/s/${token}/captions.vtt`, params: { token } };
      },
      params: ["token"],
    },
  },
  "s.$token.audio": {
    loader: {
      prepare: async () => {
        const f = await family();
        const link = await createShareLink(database.db, { answerId: f.answer.id, createdBy: f.owner.id });
        const token = await signCapability(context().config, "share", link.id);
        return { path: `/s/${token}/audio`, params: { token } };
      },
      params: ["token"],
    },
  },
  "unsubscribe.$token": {
    forms: [
      {
        name: "unsubscribe",
        prepare: async () => {
          const f = await family();
          const token = await signCapability(context().config, "unsubscribe", f.storyteller.id);
          return { path: `/unsubscribe/${token}`, params: { token }, fields: { "List-Unsubscribe": "One-Click" } };
        },
        hidden: ["List-Unsubscribe"],
        params: ["token"],
      },
    ],
    loader: {
      prepare: async () => {
        const f = await family();
        const token = await signCapability(context().config, "unsubscribe", f.storyteller.id);
        return { path: `/unsubscribe/${token}`, params: { token } };
      },
      params: ["token"],
    },
  },
  "webhooks.postmark": {
    forms: [
      {
        name: "a bounce",
        prepare: async () => ({
          path: "/webhooks/postmark",
          fields: {
            RecordType: "Bounce",
            Type: "HardBounce",
            Email: "gone@example.com",
            MessageID: crypto.randomUUID(),
            Description: "No such user",
          },
          context: postmarkContext,
          request: async (url, fields) =>
            new Request(url, {
              method: "POST",
              headers: {
                "Content-Type": "application/json",
                Authorization: `Basic ${Buffer.from(`postmark:${WEBHOOK_SECRET}`).toString("base64")}`,
              },
              body: JSON.stringify(fields),
            }),
        }),
        hidden: ["RecordType", "Type", "Email", "MessageID", "Description"],
      },
    ],
    loader: { prepare: () => signedOut("/webhooks/postmark") },
  },
  "webhooks.postmark.inbound": {
    forms: [
      {
        name: "a reply to a question email",
        prepare: async () => ({
          path: "/webhooks/postmark/inbound",
          fields: {
            MessageID: crypto.randomUUID(),
            From: "kamala@example.com",
            To: "reply+0123456789abcdef0123456789abcdef0123456789abcdef@inbound.localhost",
            MailboxHash: "0123456789abcdef0123456789abcdef0123456789abcdef",
            StrippedTextReply: "We lived by the river.",
          },
          context: postmarkContext,
          request: async (url, fields) =>
            new Request(url, {
              method: "POST",
              headers: {
                "Content-Type": "application/json",
                Authorization: `Basic ${Buffer.from(`postmark:${WEBHOOK_SECRET}`).toString("base64")}`,
              },
              body: JSON.stringify(fields),
            }),
        }),
        hidden: ["MessageID", "From", "To", "MailboxHash", "StrippedTextReply"],
      },
    ],
    loader: { prepare: () => signedOut("/webhooks/postmark/inbound") },
  },
  "webhooks.twilio.inbound": {
    forms: [
      {
        name: "a text comes in",
        prepare: async () => ({
          path: "/webhooks/twilio/inbound",
          fields: {
            From: "+15555550123",
            To: "+15555550100",
            Body: "STOP",
            MessageSid: "SM" + crypto.randomUUID().replaceAll("-", ""),
          },
          context: twilioContext,
          request: twilioRequest,
        }),
        hidden: ["From", "To", "Body", "MessageSid"],
      },
    ],
    loader: { prepare: () => signedOut("/webhooks/twilio/inbound") },
  },
  "webhooks.twilio.whatsapp": {
    forms: [
      {
        name: "a WhatsApp message comes in",
        prepare: async () => ({
          path: "/webhooks/twilio/whatsapp",
          fields: {
            From: "whatsapp:+919812345678",
            To: "whatsapp:+15555550100",
            Body: "STOP",
            NumMedia: "0",
            MessageSid: "SM" + crypto.randomUUID().replaceAll("-", ""),
          },
          context: whatsappContext,
          request: twilioRequest,
        }),
        hidden: ["From", "To", "Body", "NumMedia", "MessageSid"],
      },
    ],
    loader: { prepare: () => signedOut("/webhooks/twilio/whatsapp") },
  },
  "webhooks.twilio.status": {
    forms: [
      {
        name: "a delivery status",
        prepare: async () => ({
          path: `/webhooks/twilio/status?m=${crypto.randomUUID()}`,
          fields: { MessageSid: "SM" + "0".repeat(32), MessageStatus: "failed", ErrorCode: "30003" },
          context: twilioContext,
          request: twilioRequest,
        }),
        hidden: ["MessageSid", "MessageStatus", "ErrorCode"],
      },
    ],
    loader: { prepare: () => signedOut("/webhooks/twilio/status") },
  },
  "webhooks.twilio.voice": {
    forms: [
      {
        name: "a call comes in",
        prepare: async () => ({
          path: "/webhooks/twilio/voice?step=incoming",
          fields: { CallSid: callSid(), From: "+15555550123", To: VOICE_NUMBER, CallStatus: "ringing" },
          context: voiceContext,
          request: twilioRequest,
        }),
        hidden: ["CallSid", "From", "To", "CallStatus"],
      },
      {
        name: "a code is keyed in",
        prepare: async () => {
          const sid = callSid();
          await database.db
            .insertInto("phone_calls")
            .values({ call_sid: sid, direction: "inbound", caller_e164: "+15555550177", called_e164: VOICE_NUMBER })
            .execute();
          return {
            path: "/webhooks/twilio/voice?step=code",
            fields: { CallSid: sid, From: "+15555550177", To: VOICE_NUMBER, Digits: "123456" },
            context: voiceContext,
            request: twilioRequest,
          };
        },
        hidden: ["CallSid", "Digits"],
      },
      {
        name: "a question is chosen",
        prepare: async () => {
          const call = await callInProgress();
          return {
            path: "/webhooks/twilio/voice?step=choose",
            fields: { ...call.base, Digits: "1" },
            context: voiceContext,
            request: twilioRequest,
          };
        },
        hidden: ["CallSid", "Digits"],
      },
      {
        name: "the recording is in",
        prepare: async () => {
          const call = await callInProgress();
          const recordingSid = "RE" + crypto.randomUUID().replaceAll("-", "");
          return {
            path: "/webhooks/twilio/voice?step=recorded",
            fields: {
              ...call.base,
              RecordingSid: recordingSid,
              RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/AC${"1".repeat(32)}/Recordings/${recordingSid}`,
              RecordingDuration: "3",
              Digits: "#",
            },
            context: voiceContext,
            request: twilioRequest,
          };
        },
        hidden: ["CallSid", "RecordingSid", "RecordingDuration", "Digits"],
      },
      {
        name: "review: keep, play or again",
        prepare: async () => {
          const call = await callInProgress();
          await database.db
            .insertInto("phone_recordings")
            .values({
              recording_sid: "RE" + crypto.randomUUID().replaceAll("-", ""),
              call_sid: call.sid,
              prompt_id: call.sent.id,
              duration_seconds: 3,
            })
            .execute();
          return {
            path: "/webhooks/twilio/voice?step=review",
            fields: { ...call.base, Digits: "3" },
            context: voiceContext,
            request: twilioRequest,
          };
        },
        hidden: ["CallSid", "Digits"],
      },
      {
        name: "another question (next)",
        prepare: async () => {
          const call = await callInProgress();
          return {
            path: "/webhooks/twilio/voice?step=next",
            fields: { ...call.base, Digits: "1" },
            context: voiceContext,
            request: twilioRequest,
          };
        },
        hidden: ["CallSid", "Digits"],
      },
      {
        name: "the call ends",
        prepare: async () => {
          const call = await callInProgress();
          return {
            path: "/webhooks/twilio/voice?step=status",
            fields: { ...call.base, CallStatus: "completed" },
            context: voiceContext,
            request: twilioRequest,
          };
        },
        hidden: ["CallSid", "CallStatus"],
      },
    ],
    loader: { prepare: () => signedOut("/webhooks/twilio/voice") },
  },
};

// ---------------------------------------------------------------------------------------------
// Route modules, as React Router finds them (app/routes.ts: flat files, or a folder's route.tsx).

const ROUTES_DIR = path.dirname(new URL(import.meta.url).pathname);

function routeFiles(): { id: string; file: string }[] {
  return readdirSync(ROUTES_DIR).flatMap((name) => {
    const full = path.join(ROUTES_DIR, name);
    if (statSync(full).isDirectory()) {
      const route = ["route.tsx", "route.ts"].find((f) => readdirSync(full).includes(f));
      return route ? [{ id: name, file: path.join(full, route) }] : [];
    }
    if (!/\.tsx?$/.test(name) || /\.test\.tsx?$/.test(name)) return [];
    return [{ id: name.replace(/\.tsx?$/, ""), file: full }];
  });
}

const exportsOf = (file: string) => {
  const source = readFileSync(file, "utf8");
  const exported = (name: string) => new RegExp(`export (async )?(function|const) ${name}\\b`).test(source);
  return { action: exported("action"), loader: exported("loader") };
};

type RouteModule = { action?: (args: never) => unknown; loader?: (args: never) => unknown };
const moduleOf = (id: string) => {
  const found = routeFiles().find((route) => route.id === id);
  if (!found) throw new Error(`no route module ${id}`);
  return import(/* @vite-ignore */ found.file) as Promise<RouteModule>;
};

// ---------------------------------------------------------------------------------------------
// What a run checks.

const locales = { en: new Map<string, unknown>(), hi: new Map<string, unknown>() };
function translated(language: "en" | "hi", key: string, defaultNs: string): boolean {
  const [ns, rest] = key.includes(":") ? key.split(/:(.*)/s) : [defaultNs, key];
  if (!locales[language].has(ns)) {
    try {
      locales[language].set(
        ns,
        JSON.parse(readFileSync(path.join(ROUTES_DIR, `../../locales/${language}/${ns}.json`), "utf8")),
      );
    } catch {
      locales[language].set(ns, {});
    }
  }
  let node = locales[language].get(ns);
  for (const part of rest.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" && node.length > 0;
}

/** The messages a refusal carries: conform's reply (field and form errors), or a page's error keys. */
function messagesOf(data: unknown, namespace?: string): { keys: string[]; namespace: string } {
  const reply = (data as { result?: { error?: Record<string, string[] | null> } } | null)?.result;
  if (reply?.error) return { keys: Object.values(reply.error).flatMap((m) => m ?? []), namespace: "common" };
  const page = data as { error?: unknown; sendError?: unknown } | null;
  const keys = [page?.error, page?.sendError].filter((k): k is string => typeof k === "string");
  return { keys, namespace: namespace ?? "common" };
}

let tables: string[] = [];
/** Every table's rows, as one string per table (sessions and rate limits move on every request). */
async function fingerprint(): Promise<Record<string, string>> {
  if (!tables.length) {
    const rows = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not in ('sessions', 'rate_limits') and table_name not like 'kysely_%'
      order by table_name`.execute(database.db);
    tables = rows.rows.map((r) => r.name);
  }
  // Rows and the newest row version: any insert or update writes a row version with a newer xmin,
  // and a delete lowers the count. (Hashing every row's text, sorted, cost more with each form as
  // the tables grew: the file's time went mostly to it.)
  const columns = tables.map(
    (name) => `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from "${name}") as "${name}"`,
  );
  const { rows } = await sql.raw<Record<string, string>>(`select ${columns.join(", ")}`).execute(database.db);
  return rows[0];
}

/** A URL carries UTF-8: half a character arrives as U+FFFD, as the server decodes it. */
const asInUrl = (value: string) => Buffer.from(value, "utf8").toString("utf8");

function mutate(fields: Fields, name: string, change: Mutation): Fields {
  const next = { ...fields };
  if (change.kind === "remove") delete next[name];
  else if (change.kind === "repeat") next[name] = [...[fields[name] ?? []].flat(), change.value];
  else next[name] = Array.isArray(fields[name]) ? [change.value] : change.value;
  return next;
}

/** A conform list under its bare name: `emails=x` (or twice, or not at all) instead of `emails[0]=…`. */
function bareList(fields: Fields, name: string, change: Mutation): Fields {
  const next = Object.fromEntries(Object.entries(fields).filter(([key]) => !key.startsWith(`${name}[`)));
  if (change.kind === "replace") next[name] = change.value;
  if (change.kind === "repeat") next[name] = [change.value, change.value];
  return next;
}

/** The file as hostile input: a hostile file name, none at all, or the field sent twice. */
function mutateFile(file: UploadedFile, change: Mutation): UploadedFile[] {
  if (change.kind === "remove") return [];
  if (change.kind === "repeat") return [file, { ...file, name: change.value }];
  return [{ ...file, name: change.value }];
}

/** A multipart post with its Content-Length, as a browser sends a form with a file. */
async function multipartRequestOf(url: string, fields: Fields, files: UploadedFile[], jar?: CookieJar) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  for (const file of files)
    form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return new Request(url, {
    method: "POST",
    headers: {
      "Content-Type": encoded.headers.get("content-type")!,
      "Content-Length": String(body.byteLength),
      "Sec-Fetch-Site": "same-origin",
      ...(jar ? { Cookie: jar.header() } : {}),
    },
    body,
  });
}

function formRequestOf(url: string, fields: Fields, jar?: CookieJar) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return new Request(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
      ...(jar ? { Cookie: jar.header() } : {}),
    },
    body,
  });
}

/** Error lines logged while `run` ran: each is a failure hidden behind a friendly answer. */
async function errorLogsDuring<T>(run: () => Promise<T>): Promise<{ value: T; errors: unknown[][] }> {
  const errors: unknown[][] = [];
  const unwatch = watchLogs((level, args) => {
    if (level === "error" || level === "fatal") errors.push(args);
    return false;
  });
  try {
    return { value: await run(), errors };
  } finally {
    unwatch();
  }
}

// A modest number per form keeps the file near a minute; BAD_INPUT_RUNS=100 searches harder.
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 10);

describe("every route module is in the table", () => {
  it("has an entry for each form and each loader, so a new one is not left out", () => {
    const missing = routeFiles().flatMap(({ id, file }) => {
      const entry = routes[id];
      const has = exportsOf(file);
      const problems: string[] = [];
      if (!entry) return [`${id}: no entry`];
      if (entry.none) return has.action || has.loader ? [`${id}: "none", but it has a loader or an action`] : [];
      if (has.action && !entry.forms?.length) problems.push(`${id}: its action has no forms`);
      if (has.loader && !entry.loader) problems.push(`${id}: its loader has no entry`);
      if (!has.action && entry.forms) problems.push(`${id}: forms, but no action`);
      if (!has.loader && entry.loader) problems.push(`${id}: a loader entry, but no loader`);
      return problems;
    });
    const stale = Object.keys(routes).filter((id) => !routeFiles().some((route) => route.id === id));
    expect([...missing, ...stale.map((id) => `${id}: no such route`)]).toEqual([]);
  });
});

type Action = (args: unknown) => Promise<unknown>;

/** The request for a form's post, as its page (or provider) sends it, with `headers` added. */
async function requestFor(
  prepared: Prepared,
  pathname: string,
  fields: Fields,
  files: UploadedFile[] | null,
  headers: Record<string, string | null> = {},
) {
  const url = new URL(pathname, APP_URL).href;
  const request = prepared.request
    ? await prepared.request(url, fields)
    : files
      ? await multipartRequestOf(url, fields, files, prepared.jar)
      : formRequestOf(url, fields, prepared.jar);
  const merged = new Headers(request.headers);
  merged.set("Host", new URL(url).host);
  for (const [name, value] of Object.entries(headers))
    if (value === null) merged.delete(name);
    else merged.set(name, value);
  return new Request(request, { headers: merged });
}

/**
 * What the server answers: its CSRF check first (server/security.ts, as server/http.ts runs it
 * before React Router), then the route's action. Error-level log lines are collected.
 */
async function answerOf(action: Action, request: Request, params: Record<string, string>, prepared: Prepared) {
  const url = new URL(request.url);
  const refusal = postRefusal(
    {
      method: request.method,
      path: url.pathname,
      protocol: url.protocol.slice(0, -1),
      headers: Object.fromEntries(request.headers),
    },
    new URL(APP_URL).origin,
  );
  if (refusal) return { value: { status: 403, data: { error: `common:plain.${refusal}` } }, errors: [] };
  return errorLogsDuring(() =>
    outcome(() => action({ request, params, context: (prepared.context ?? context)(), ...routeArgs })),
  );
}

/** A reply must echo a conform list as a list: the page renders it with getFieldList, which throws otherwise. */
function listsEchoedAsLists(data: unknown, lists: string[]) {
  const initial = (data as { result?: { initialValue?: Record<string, unknown> | null } } | null)?.result?.initialValue;
  return lists.filter((name) => initial?.[name] !== undefined && !Array.isArray(initial[name]));
}

describe("every form, with one hostile field at a time", () => {
  const cases = Object.entries(routes).flatMap(([id, entry]) => (entry.forms ?? []).map((form) => ({ id, form })));
  it.each(cases)(
    "$id: $form.name",
    async ({ id, form }) => {
      const action = (await moduleOf(id)).action as Action;

      // The control: the form as its page posts it goes through, so a renamed intent or field (a
      // post every run would refuse, "storing nothing") fails here instead of passing unseen.
      const control = await form.prepare();
      const files = control.file ? [control.file] : null;
      const accepted = await answerOf(
        action,
        await requestFor(control, control.path, control.fields, files),
        { ...control.params },
        control,
      );
      expect(accepted.errors).toEqual([]);
      if (form.control) {
        expect(accepted.value.status, "the unmodified post").toBe(form.control);
        if (form.control === 400)
          expect(messagesOf(accepted.value.data, form.namespace).keys.length).toBeGreaterThan(0);
      } else expect(accepted.value.status, `${id} ${form.name}: the unmodified post is refused`).toBeLessThan(400);

      // The same post from another site, or from our page reached under another Host: refused in words.
      const foreign: { headers: Record<string, string | null>; key: string }[] = [
        { headers: { Origin: "https://evil.example", "Sec-Fetch-Site": null }, key: "plain.crossSite" },
        { headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, key: "plain.crossSite" },
        {
          headers: { Origin: APP_URL, "Sec-Fetch-Site": "same-origin", Host: "heirloom.internal" },
          key: "plain.wrongHost",
        },
      ];
      for (const { headers, key } of foreign) {
        const prepared = await form.prepare();
        const before = await fingerprint();
        const request = await requestFor(prepared, prepared.path, prepared.fields, files && [prepared.file!], headers);
        const { value: answer } = await answerOf(action, request, { ...prepared.params }, prepared);
        const label = `${JSON.stringify(headers)} → ${answer.status}`;
        expect(answer.status, label).toBe(403);
        expect(messagesOf(answer.data).keys, label).toEqual([`common:${key}`]);
        expect(translated("en", key, "common") && translated("hi", key, "common"), label).toBe(true);
        expect(await fingerprint(), `${label}: stored something`).toEqual(before);
      }

      const targets = [
        ...(form.typed ?? []),
        ...(form.hidden ?? []),
        ...(form.params ?? []).map((p) => `param:${p}`),
        ...(form.lists ?? []).map((name) => `bare:${name}`),
      ];
      expect(targets.length).toBeGreaterThan(0);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...targets), mutation, async (target, change) => {
          const prepared = await form.prepare();
          const params = { ...prepared.params };
          let fields = prepared.fields;
          let pathname = prepared.path;
          if (target.startsWith("param:")) {
            const name = target.slice(6);
            params[name] = change.kind === "remove" ? "" : asInUrl(change.value);
            pathname = pathname.replace(
              encodeURIComponent(prepared.params?.[name] ?? "") || "\u0000",
              encodeURIComponent(params[name]),
            );
          } else if (target.startsWith("bare:")) fields = bareList(fields, target.slice(5), change);
          else if (target !== "file") fields = mutate(fields, target, change);
          const files = prepared.file
            ? target === "file"
              ? mutateFile(prepared.file, change)
              : [prepared.file]
            : null;
          const request = await requestFor(prepared, pathname, fields, files);
          const before = await fingerprint();
          const { value: answer, errors } = await answerOf(action, request, params, prepared);
          const label = `${target} ${change.kind} ${JSON.stringify(change.value).slice(0, 80)} → ${answer.status}`;
          expect(errors, label).toEqual([]);
          expect(answer.status, label).toBeLessThan(500);
          expect(listsEchoedAsLists(answer.data, form.lists ?? []), `${label}: a list echoed as a non-list`).toEqual(
            [],
          );
          if (answer.status < 400) return;
          expect(await fingerprint(), `${label}: a refusal stored something`).toEqual(before);
          const { keys, namespace } = messagesOf(answer.data, form.namespace);
          for (const key of keys) {
            expect(translated("en", key, namespace), `${label}: "${key}" in English`).toBe(true);
            expect(translated("hi", key, namespace), `${label}: "${key}" in Hindi`).toBe(true);
          }
          const typed = form.typed?.includes(target) || target.startsWith("bare:");
          if (answer.status === 400 && typed)
            expect(keys.length, `${label}: refused without a message`).toBeGreaterThan(0);
        }),
        { numRuns: RUNS, endOnFailure: false },
      );
    },
    120_000,
  );
});

describe("every loader, with hostile URL parameters and query strings", () => {
  const cases = Object.entries(routes).flatMap(([id, entry]) => (entry.loader ? [{ id, loader: entry.loader }] : []));
  it.each(cases)(
    "$id",
    async ({ id, loader: entry }) => {
      const { loader } = await moduleOf(id);
      const targets = [...(entry.params ?? []).map((p) => `param:${p}`), ...(entry.query ?? []), "unknown"];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...targets), hostileValue, async (target, value) => {
          const prepared = await entry.prepare();
          const params = { ...prepared.params };
          const url = new URL(prepared.path, APP_URL);
          if (target.startsWith("param:")) {
            const name = target.slice(6);
            params[name] = asInUrl(value);
            url.pathname = url.pathname.replace(
              encodeURIComponent(prepared.params?.[name] ?? "") || "\u0000",
              encodeURIComponent(params[name]),
            );
          } else url.searchParams.append(target === "unknown" ? value.slice(0, 20) || "x" : target, value);
          const request = prepared.jar ? get(prepared.jar, url.pathname + url.search) : new Request(url);
          const { value: answer, errors } = await errorLogsDuring(() =>
            outcome(() =>
              (loader as (args: unknown) => Promise<unknown>)({
                request,
                params,
                context: (prepared.context ?? context)(),
                ...routeArgs,
              }),
            ),
          );
          const label = `${target} ${JSON.stringify(value).slice(0, 80)} → ${answer.status}`;
          expect(errors, label).toEqual([]);
          // The error pages' own answers: /500, and 503 for maintenance (and healthz without a database).
          if (!["_public.500", "maintenance", "healthz"].includes(id)) expect(answer.status, label).toBeLessThan(500);
        }),
        { numRuns: RUNS, endOnFailure: false },
      );
    },
    120_000,
  );
});
