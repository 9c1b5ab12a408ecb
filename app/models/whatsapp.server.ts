import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { Config } from "~/config.server";
import { getServerT } from "~/i18n/i18next.server";
import { enqueueJob } from "~/services/jobs.server";
import { keepInboundWhatsApp, queueWhatsApp } from "~/services/outbox.server";
import { signCapability } from "~/services/tokens.server";
import type { WhatsAppService } from "~/services/whatsapp-simulator.server";
import { type Db, type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";
import { type AnswerServices, acceptRecording } from "./answer.server";
import { recordUrl } from "./delivery.server";
import { notifyStorytellerMessage } from "./notification.server";
import { classifyReply, recordConsentReply } from "./sms-consent.server";

/** What she sent (Twilio's inbound webhook, or the outbox's WhatsApp simulator): one message. */
export type InboundWhatsApp = {
  from: string;
  body: string;
  messageSid: string;
  /** Her first attachment (a voice note is one), if any. */
  media: { mediaSid: string; contentType: string } | null;
  /** The message of ours she replied to (Twilio's OriginalRepliedMessageSid). */
  repliedTo: string | null;
};

export type InboundOutcome =
  | "duplicate"
  | "voice-note"
  | "own-story"
  | "no-question"
  | "quote-question"
  | "not-audio"
  | "stop"
  | "start"
  | "message"
  | "text";

type ReplyKey =
  | "thanks"
  | "storyThanks"
  | "alreadyAnswered"
  | "tooLong"
  | "noSound"
  | "noQuestion"
  | "quoteQuestion"
  | "quoteForMessage"
  | "messagePassedOn"
  | "sendVoiceNote"
  | "stopped"
  | "started";

/** A WhatsApp reply in her language (free-form: she wrote to us, so WhatsApp's 24-hour window is open). */
async function reply(
  tx: DbOrTx,
  config: Config,
  to: string,
  language: Language,
  key: ReplyKey,
  values: Record<string, string> = {},
) {
  const t = await getServerT(language, { config }, "whatsapp");
  await queueWhatsApp(tx, { to, text: t(`reply.${key}`, values) });
}

/** The language of the newest Storyteller on the number (English when none). */
async function languageOf(tx: DbOrTx, phone: string): Promise<Language> {
  const row = await tx
    .selectFrom("storytellers")
    .select("language")
    .where("phone_e164", "=", phone)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.language ?? "en";
}

/** More than one account has a Storyteller on the number: only a quoted message says whose she answers. */
async function sharedBetweenFamilies(tx: DbOrTx, phone: string) {
  const owners = await tx
    .selectFrom("storytellers")
    .select("owner_id")
    .distinct()
    .where("phone_e164", "=", phone)
    .limit(2)
    .execute();
  return owners.length > 1;
}

/** Her sent questions (prompts of the Storytellers on her number). */
const questionsTo = (tx: DbOrTx, from: string) =>
  tx
    .selectFrom("prompts as p")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .where("s.phone_e164", "=", from)
    .where("p.sent_at", "is not", null);

/** The question whose WhatsApp message she replied to (quoted), if it is one to her number. */
async function quotedQuestion(tx: DbOrTx, from: string, repliedTo: string | null) {
  if (!repliedTo) return null;
  return (
    (await questionsTo(tx, from)
      .innerJoin("deliveries as d", "d.prompt_id", "p.id")
      .innerJoin("outbox_messages as o", "o.id", "d.outbox_message_id")
      .select(["p.id", "p.storyteller_id"])
      .where("o.channel", "=", "whatsapp")
      .where("o.provider_message_id", "=", repliedTo)
      .executeTakeFirst()) ?? null
  );
}

/** The Storyteller on her number what she sends unasked is for (one account's: the newest). */
async function storytellerOnNumber(tx: DbOrTx, phone: string) {
  const row = await tx
    .selectFrom("storytellers")
    .select("id")
    .where("phone_e164", "=", phone)
    .where("is_self", "=", false)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The question a voice note answers: the one whose message she replied to (a question to her
 * number), else her most recently sent open one; with none open, the one she answered on WhatsApp
 * in the last day (a second note in a row: she is told how to record again), else none (the note
 * becomes a story of her own). A note that quotes none of our messages, on a number of
 * Storytellers of several accounts, is never guessed ("ambiguous"): two families (or a stranger
 * who added her number) would race for her answers.
 */
async function promptForNote(
  tx: DbOrTx,
  from: string,
  repliedTo: string | null,
  now: Date,
): Promise<string | "ambiguous" | null> {
  const hers = questionsTo(tx, from);
  const quoted = await quotedQuestion(tx, from, repliedTo);
  if (quoted) return quoted.id;
  if (await sharedBetweenFamilies(tx, from)) return "ambiguous";
  const open = await hers
    .leftJoin("answers as a", "a.prompt_id", "p.id")
    .select("p.id")
    .where("p.skipped_at", "is", null)
    .where((eb) =>
      eb.or([
        eb.and([eb("a.id", "is", null), eb("p.is_own_story", "=", false)]),
        eb("p.rerecord_requested_at", "is not", null),
      ]),
    )
    .orderBy("p.sent_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (open) return open.id;
  const justAnswered = await hers
    .innerJoin("answers as a", "a.prompt_id", "p.id")
    .select("p.id")
    .where("a.upload_id", "like", "whatsapp:%")
    // After a story of her own, another note is another story.
    .where("p.is_own_story", "=", false)
    .where("a.created_at", ">", new Date(now.getTime() - 24 * 60 * 60_000))
    .orderBy("a.created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return justAnswered?.id ?? null;
}

/**
 * One inbound WhatsApp message, once (keyed by its MessageSid: a webhook Twilio delivers twice, or
 * a replayed one, does nothing more). It is kept in the outbox beside what we sent. A voice note
 * (any audio) is queued for the voice-note job, which answers her: to a question, or, with none
 * open, as a story of her own. STOP (or बंद) and START (or शुरू) are kept as texts' are; any other
 * text is a message to her family (their bell and email), else she is told how to answer.
 */
export async function handleInboundWhatsApp(
  db: DbOrTx,
  config: Config,
  input: InboundWhatsApp,
  now = new Date(),
): Promise<InboundOutcome> {
  return inTransaction(db, async (tx) => {
    const first = await tx
      .insertInto("inbound_messages")
      .values({ message_sid: input.messageSid })
      .onConflict((oc) => oc.doNothing())
      .returning("message_sid")
      .executeTakeFirst();
    if (!first) return "duplicate";
    const language = await languageOf(tx, input.from);
    const t = await getServerT(language, { config }, "whatsapp");
    const text = input.body.slice(0, 2000);
    await keepInboundWhatsApp(tx, { from: input.from, text: text || t("voiceNote"), messageSid: input.messageSid });

    if (input.media) {
      if (!/^audio\//i.test(input.media.contentType)) {
        await reply(tx, config, input.from, language, "sendVoiceNote");
        return "not-audio";
      }
      // With no question to answer, the job still tells her so and deletes the media at Twilio.
      const found = await promptForNote(tx, input.from, input.repliedTo, now);
      const ambiguous = found === "ambiguous";
      const promptId = ambiguous ? null : found;
      // No question to answer: a story of her own, for the Storyteller on her number.
      const storytellerId = ambiguous || promptId ? null : await storytellerOnNumber(tx, input.from);
      const note = await tx
        .insertInto("whatsapp_voice_notes")
        .values({
          message_sid: input.messageSid,
          media_sid: input.media.mediaSid,
          phone_e164: input.from,
          prompt_id: promptId,
          storyteller_id: storytellerId,
          // Asked here to quote the question; the job only deletes the media.
          ...(ambiguous ? { status: "replied" as const, error: "quoteQuestion" } : {}),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (ambiguous) await reply(tx, config, input.from, language, "quoteQuestion");
      await enqueueJob(tx, "whatsapp__voice_note", { noteId: note.id });
      return ambiguous ? "quote-question" : promptId ? "voice-note" : storytellerId ? "own-story" : "no-question";
    }

    const kind = classifyReply(text);
    if (kind === "stop" || kind === "start") {
      const { asker, superseded } = await recordConsentReply(tx, { from: input.from, body: text, kind }, now);
      if (superseded) return kind;
      if (kind === "stop") await reply(tx, config, input.from, language, "stopped");
      else if (asker !== null) await reply(tx, config, input.from, language, "started", { asker });
      return kind;
    }
    if (kind === "other" && text.trim()) {
      const quoted = await quotedQuestion(tx, input.from, input.repliedTo);
      if (!quoted && (await sharedBetweenFamilies(tx, input.from))) {
        await reply(tx, config, input.from, language, "quoteForMessage");
        return "quote-question";
      }
      const storytellerId = quoted?.storyteller_id ?? (await storytellerOnNumber(tx, input.from));
      if (storytellerId) {
        const message = await tx
          .insertInto("storyteller_messages")
          .values({ storyteller_id: storytellerId, message_sid: input.messageSid, text: text.trim() })
          .returning("id")
          .executeTakeFirstOrThrow();
        const passedTo = await notifyStorytellerMessage(tx, config, { storytellerId, messageId: message.id });
        await reply(tx, config, input.from, language, "messagePassedOn", { asker: passedTo });
        return "message";
      }
    }
    await reply(tx, config, input.from, language, "sendVoiceNote");
    return "text";
  });
}

export type VoiceNoteOutcome = ReplyKey | "nothing-to-do";

const problemReply = (problem: string): ReplyKey =>
  problem === "gone" ? "noQuestion" : problem === "tooLong" || problem === "tooLarge" ? "tooLong" : "noSound";

/**
 * The voice-note job's work (decision 041). The note is copied from Twilio (with the account's
 * credentials), checked and stored exactly like an upload (acceptRecording: playable copy,
 * transcript and notifications follow), and she is answered in her language: thanks, what was
 * wrong, or — when the question already has its answer — a link to record it again. Only then is
 * the media deleted at Twilio. Any failure throws, so the job retries: the answer's upload id
 * (`whatsapp:` + the MessageSid) makes a retry the same answer, and the reply is queued once, with
 * the note's move from pending.
 */
export async function processWhatsAppVoiceNote(
  services: AnswerServices & { whatsapp: WhatsAppService },
  noteId: string,
): Promise<VoiceNoteOutcome> {
  const { db, whatsapp } = services;
  const note = await db.selectFrom("whatsapp_voice_notes").selectAll().where("id", "=", noteId).executeTakeFirst();
  if (!note || note.status === "done") return "nothing-to-do";
  const media = { messageSid: note.message_sid, mediaSid: note.media_sid };
  let outcome: VoiceNoteOutcome = "nothing-to-do";
  if (note.status === "pending") {
    const uploadId = `whatsapp:${note.message_sid}`;
    let answerId: string | null = null;
    let key: ReplyKey = "noQuestion";
    const promptId = note.prompt_id ?? (note.storyteller_id ? await ownStoryPrompt(services, note.id) : null);
    if (promptId) {
      const folder = await mkdtemp(path.join(tmpdir(), "heirloom-whatsapp-"));
      try {
        const file = path.join(folder, "voice-note");
        await whatsapp.fetchMedia(media, file);
        const result = await acceptRecording(services, {
          promptId,
          file,
          isPrivate: false,
          uploadId,
          fromPhone: note.phone_e164,
        });
        if (result.ok) {
          answerId = result.answerId;
          key = (await answerUploadId(db, result.answerId)) === uploadId ? "thanks" : "alreadyAnswered";
        } else {
          key = problemReply(result.problem);
          await dropUnansweredOwnStory(db, promptId);
        }
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }
    outcome = key;
    await replyOnce(services, { ...note, prompt_id: promptId }, key, key === "thanks" ? answerId : null);
  }
  await whatsapp.deleteMedia(media);
  await db
    .updateTable("whatsapp_voice_notes")
    .set({ status: "done", updated_at: new Date() })
    .where("id", "=", note.id)
    .execute();
  return outcome;
}

/**
 * The prompt of the story of her own a note becomes (made once: a retried job finds it on the
 * note): titled "Dadi sent a story" in her owner's language, asked at once (sent_at now, as My
 * Stories' own titles are), at the end of her Storyteller's list.
 */
async function ownStoryPrompt(services: AnswerServices, noteId: string) {
  const { config } = services;
  return inTransaction(services.db, async (tx) => {
    const note = await tx
      .selectFrom("whatsapp_voice_notes as n")
      .innerJoin("storytellers as s", "s.id", "n.storyteller_id")
      .innerJoin("users as owner", "owner.id", "s.owner_id")
      .select(["n.prompt_id", "s.id as storyteller_id", "s.nickname", "owner.language"])
      .where("n.id", "=", noteId)
      .forUpdate("n")
      .executeTakeFirst();
    if (!note) return null;
    if (note.prompt_id) return note.prompt_id;
    const t = await getServerT(note.language, { config }, "whatsapp");
    const { id } = await tx
      .insertInto("prompts")
      .values({
        storyteller_id: note.storyteller_id,
        created_by: null,
        text: t("ownStory.title", { nickname: note.nickname }),
        is_custom: true,
        is_own_story: true,
        queue_position: sql<number>`(select coalesce(max(queue_position), 0) + 1 from prompts where storyteller_id = ${note.storyteller_id})`,
        sent_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await tx.updateTable("whatsapp_voice_notes").set({ prompt_id: id }).where("id", "=", noteId).execute();
    return id;
  });
}

/** A story of her own whose note could not be kept (no sound, too long) is not left as a question. */
async function dropUnansweredOwnStory(db: Db, promptId: string) {
  await db
    .deleteFrom("prompts")
    .where("id", "=", promptId)
    .where("is_own_story", "=", true)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("answers").select("answers.id").whereRef("answers.prompt_id", "=", "prompts.id"))),
    )
    .execute();
}

const answerUploadId = async (db: Db, answerId: string) =>
  (await db.selectFrom("answers").select("upload_id").where("id", "=", answerId).executeTakeFirst())?.upload_id ?? null;

/** Moves the note from pending and queues her reply in one transaction: a retried job replies once. */
async function replyOnce(
  services: AnswerServices,
  note: { id: string; phone_e164: string; prompt_id: string | null },
  key: ReplyKey,
  answerId: string | null,
) {
  const { config } = services;
  await inTransaction(services.db, async (tx) => {
    const moved = await tx
      .updateTable("whatsapp_voice_notes")
      .set({ status: "replied", answer_id: answerId, error: key === "thanks" ? null : key, updated_at: new Date() })
      .where("id", "=", note.id)
      .where("status", "=", "pending")
      .returning("id")
      .executeTakeFirst();
    if (!moved) return;
    const prompt = note.prompt_id
      ? await tx
          .selectFrom("prompts as p")
          .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
          .innerJoin("users as owner", "owner.id", "s.owner_id")
          .leftJoin("users as asker", "asker.id", "p.created_by")
          .select([
            "p.id",
            "p.is_own_story",
            "s.language",
            sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker"),
          ])
          .where("p.id", "=", note.prompt_id)
          .executeTakeFirst()
      : undefined;
    const language = prompt?.language ?? (await languageOf(tx, note.phone_e164));
    const values: Record<string, string> = { asker: prompt?.asker ?? "" };
    if (key === "alreadyAnswered" && prompt)
      values.recordUrl = recordUrl(config, await signCapability(config, "record", prompt.id), language);
    await reply(
      tx,
      config,
      note.phone_e164,
      language,
      key === "thanks" && prompt?.is_own_story ? "storyThanks" : key,
      values,
    );
  });
}
