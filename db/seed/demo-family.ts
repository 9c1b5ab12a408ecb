import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { DateTime } from "luxon";
import type { Config } from "~/config.server";
import { acceptRecording } from "~/models/answer.server";
import { queueSendNow, sendDelivery } from "~/models/delivery.server";
import { createStorytellerFromDraft } from "~/models/onboarding.server";
import { registerUser } from "~/models/user.server";
import { createOutboxMail } from "~/services/mail.server";
import { createOutboxSms } from "~/services/sms.server";
import type { StorageService } from "~/services/storage.server";
import type { Db } from "../client";
import type { Language } from "../schema";

/**
 * A demo family for trying Heirloom (`npm run db:seed`): an account, an English and a Hindi
 * Storyteller, prompts from the library waiting in their queues, and prompts already sent, most
 * with a recorded answer (a short tune made here, stored like any upload) and its transcript.
 * It goes through the same model functions as the app, so the rows are what the app would write.
 * Idempotent: what exists already (the account, a Storyteller with that address, a prompt already
 * sent or answered) is left as it is, so a second run adds nothing and a broken run is finished.
 * Messages go to the outbox only, whatever providers are configured: the Storytellers' addresses
 * are made up.
 */

export const DEMO_EMAIL = "demo@example.com";

type LibraryRef = { category: string; position: number };
type SentSpec = LibraryRef & { daysAgo: number; transcript?: string };
type StorytellerSpec = {
  nickname: string;
  firstName: string;
  relationship: string;
  email: string;
  timeZone: string;
  language: Language;
  sent: SentSpec[];
  queued: LibraryRef[];
};

const FAMILY: StorytellerSpec[] = [
  {
    nickname: "Grandpa Joe",
    firstName: "Joseph",
    relationship: "Grandfather",
    email: "grandpa.joe@example.com",
    timeZone: "America/Chicago",
    language: "en",
    sent: [
      {
        category: "growing-up",
        position: 1,
        daysAgo: 12,
        transcript:
          "The first thing I remember is the smell of my mother's kitchen on a winter morning. I was maybe three, sitting under the table with the dog, and she was singing while the bread baked. I didn't know the words, but I hummed along.",
      },
      {
        category: "about-you",
        position: 1,
        daysAgo: 5,
        transcript:
          "I delivered newspapers before school, sixty houses on Maple and Elm. Mr. Kowalski on the corner always waited on his porch and tipped me a nickel at Christmas. It taught me that showing up every single day is most of any job.",
      },
      // Sent yesterday, not answered yet: its record link is in the outbox.
      { category: "musings", position: 2, daysAgo: 1 },
    ],
    queued: [
      { category: "growing-up", position: 2 },
      { category: "about-you", position: 3 },
      { category: "last-thoughts", position: 2 },
    ],
  },
  {
    nickname: "Nani",
    firstName: "कमला",
    relationship: "Grandmother",
    email: "nani@example.com",
    timeZone: "Asia/Kolkata",
    language: "hi",
    sent: [
      {
        category: "growing-up",
        position: 4,
        daysAgo: 9,
        transcript:
          "मेरे नाना जी हर शाम आँगन में चारपाई पर बैठकर हमें पंचतंत्र की कहानियाँ सुनाते थे। नानी चूल्हे पर गरम रोटियाँ सेंकती थीं और हम सब बच्चे उनके चारों ओर बैठ जाते थे। वो दिन मुझे आज भी बहुत याद आते हैं।",
      },
      {
        category: "musings",
        position: 1,
        daysAgo: 2,
        transcript:
          "जब भी रेडियो पर 'लग जा गले' बजता है, मुझे तुम्हारे नाना जी के साथ बिताई शामें याद आ जाती हैं। हम छत पर बैठकर विविध भारती सुना करते थे और वो धीरे-धीरे साथ में गुनगुनाते थे।",
      },
    ],
    queued: [
      { category: "growing-up", position: 1 },
      { category: "parenting", position: 1 },
      { category: "last-thoughts", position: 1 },
    ],
  },
];

export type SeedServices = { db: Db; config: Config; storage: StorageService };

export type SeedSummary = {
  email: string;
  userCreated: boolean;
  storytellers: {
    nickname: string;
    language: Language;
    created: boolean;
    queued: number;
    sent: number;
    answers: number;
  }[];
};

const DAY_MS = 86_400_000;

export async function seedDemoFamily(
  services: SeedServices,
  options: { email?: string; now?: Date } = {},
): Promise<SeedSummary> {
  const { db, config } = services;
  const email = options.email ?? DEMO_EMAIL;
  const now = options.now ?? new Date();
  // Whatever providers are configured, the demo's prompts stay in the outbox: nobody reads these addresses.
  const deliveryDeps = { db, config, mail: createOutboxMail({ print: false }), sms: createOutboxSms({ print: false }) };

  const { created: userCreated } = await registerUser(db, {
    firstName: "Maya",
    lastName: "Sharma",
    nickname: "Maya",
    email,
    language: "en",
  });
  const user = await db
    .selectFrom("users")
    .select("id")
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirstOrThrow();

  const summary: SeedSummary = { email, userCreated, storytellers: [] };
  for (const [index, spec] of FAMILY.entries()) {
    const library = await libraryIds(db, [...spec.sent, ...spec.queued]);
    let storyteller = await db
      .selectFrom("storytellers")
      .select("id")
      .where("owner_id", "=", user.id)
      .where(sql<string>`lower(email)`, "=", spec.email)
      .executeTakeFirst();
    const created = !storyteller;
    if (!storyteller) {
      const saved = await createStorytellerFromDraft({ db, config }, user.id, {
        who: {
          nickname: spec.nickname,
          firstName: spec.firstName,
          relationship: spec.relationship,
          deliveryMethod: "email",
          email: spec.email,
          timeZone: spec.timeZone,
          language: spec.language,
        },
        prompts: { libraryPromptIds: [...library.values()], customPrompts: [] },
        // From tomorrow: the scheduler sends nothing the moment the app starts, so the demo looks as seeded.
        schedule: {
          firstPromptDate: DateTime.now().setZone(spec.timeZone).plus({ days: 1 }).toISODate()!,
          frequency: "weekly",
        },
      });
      if (!saved.ok) throw new Error(`could not add ${spec.nickname}: ${saved.problem}`);
      storyteller = { id: saved.storytellerId };
    }

    for (const [position, sent] of spec.sent.entries()) {
      const prompt = await db
        .selectFrom("prompts")
        .select(["id", "sent_at"])
        .where("storyteller_id", "=", storyteller.id)
        .where("library_prompt_id", "=", library.get(key(sent))!)
        .executeTakeFirst();
      if (!prompt) continue; // removed from the queue since an earlier run: left alone
      const sentAt = new Date(now.getTime() - sent.daysAgo * DAY_MS);
      if (!prompt.sent_at) await sendAt(deliveryDeps, prompt.id, sentAt);
      if (sent.transcript)
        await answer(
          services,
          prompt.id,
          sent.transcript,
          new Date(sentAt.getTime() + 6 * 3_600_000),
          index * 10 + position,
        );
    }

    const counts = await db
      .selectFrom("prompts")
      .leftJoin("answers", "answers.prompt_id", "prompts.id")
      .select([
        sql<number>`count(*) filter (where prompts.sent_at is null)::int`.as("queued"),
        sql<number>`count(*) filter (where prompts.sent_at is not null)::int`.as("sent"),
        sql<number>`count(answers.id)::int`.as("answers"),
      ])
      .where("prompts.storyteller_id", "=", storyteller.id)
      .executeTakeFirstOrThrow();
    summary.storytellers.push({ nickname: spec.nickname, language: spec.language, created, ...counts });
  }
  return summary;
}

const key = (ref: LibraryRef) => `${ref.category}/${ref.position}`;

/** Library prompt ids by "category/position", in the order given. */
async function libraryIds(db: Db, refs: LibraryRef[]) {
  const rows = await db
    .selectFrom("library_prompts")
    .select(["id", "category_id", "position"])
    .where((eb) =>
      eb.or(refs.map((ref) => eb.and([eb("category_id", "=", ref.category), eb("position", "=", ref.position)]))),
    )
    .execute();
  const ids = new Map<string, number>();
  for (const ref of refs) {
    const row = rows.find((r) => r.category_id === ref.category && r.position === ref.position);
    if (!row) throw new Error(`the prompt library has no ${key(ref)}: run the migrations (npm run db:migrate)`);
    ids.set(key(ref), row.id);
  }
  return ids;
}

/** "Send now" as the owner would, delivered at once at `sentAt` through the outbox (the send job finds it done). */
async function sendAt(deps: Parameters<typeof sendDelivery>[0], promptId: string, sentAt: Date) {
  const queued = await queueSendNow(deps.db, promptId, sentAt);
  if (queued.outcome !== "queued") return;
  const delivery = await deps.db
    .selectFrom("deliveries")
    .select("id")
    .where("prompt_id", "=", promptId)
    .where("purpose", "=", "prompt")
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (delivery) await sendDelivery(deps, delivery.id, { sendNow: true, now: sentAt });
}

/** The Storyteller's answer, uploaded as the record page would, then its transcript. */
async function answer(services: SeedServices, promptId: string, transcript: string, answeredAt: Date, tune: number) {
  const existing = await services.db
    .selectFrom("answers")
    .select("id")
    .where("prompt_id", "=", promptId)
    .executeTakeFirst();
  let answerId = existing?.id;
  if (!answerId) {
    const folder = await mkdtemp(path.join(os.tmpdir(), "heirloom-seed-"));
    try {
      const file = path.join(folder, "answer.wav");
      await writeFile(file, tuneWav(tune));
      const result = await acceptRecording(services, { promptId, file, isPrivate: false });
      if (!result.ok) throw new Error(`the demo recording was refused (${result.problem})`);
      answerId = result.answerId;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }
  // Only while it has none: a transcript the app made (or an edit) stays. The answer is dated
  // when the Storyteller would have recorded it, not when the seed ran.
  await services.db
    .updateTable("answers")
    .set({ transcript, transcript_status: "done", created_at: answeredAt })
    .where("id", "=", answerId)
    .where("transcript", "is", null)
    .execute();
}

const SAMPLE_RATE = 16_000;
// A pentatonic scale (C D E G A), so any run of notes sounds like a tune.
const SCALE_HZ = [261.63, 293.66, 329.63, 392.0, 440.0, 523.25];

/**
 * A short tune as a 16-bit mono PCM WAV: every browser plays it, and file-type and the duration
 * check read it like any upload. `variant` picks the notes, so each answer sounds different.
 */
function tuneWav(variant: number, notes = 12, noteSeconds = 0.45): Buffer {
  const perNote = Math.round(SAMPLE_RATE * noteSeconds);
  const data = Buffer.alloc(perNote * notes * 2);
  let state = variant + 1;
  for (let n = 0; n < notes; n++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0; // a fixed pseudo-random walk per variant
    const frequency = SCALE_HZ[(state >>> 16) % SCALE_HZ.length];
    for (let i = 0; i < perNote; i++) {
      // Soft attack and release, so notes do not click.
      const envelope = Math.min(1, i / 400, (perNote - i) / 1600);
      data.writeInt16LE(
        Math.round(Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE) * envelope * 9000),
        (n * perNote + i) * 2,
      );
    }
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
