import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { sql } from "kysely";
import { getServerT } from "~/i18n/i18next.server";
import { type AudioProblem, MAX_UPLOAD_BYTES } from "~/services/audio-check.server";
import { queueEmail } from "~/services/outbox.server";
import { promptIdOfReplyToken, tokenOfReplyAddress } from "~/services/reply-address.server";
import { type DbOrTx, inTransaction } from "../../db/client";
import type { Language } from "../../db/schema";
import { recordLinkAddress } from "./access.server";
import { releaseAnswerCode } from "./answer-code.server";
import { type AnswerServices, acceptRecording } from "./answer.server";
import { notifyStorytellerEvent } from "./notification.server";

/** One reply to a question email (Postmark's inbound webhook, or the outbox's "Reply to this email"). */
export type InboundEmailReply = {
  messageId: string;
  from: string;
  /** The addresses it was sent to (To, Cc, OriginalRecipient): one is `reply+<token>@…`. */
  to: string[];
  /** Postmark's MailboxHash: the `<token>` of `reply+<token>@…`. */
  mailboxHash: string | null;
  /** Her words, already without the quoted question and signatures (replyWords). */
  words: string;
  /** `content` is null for a file past MAX_UPLOAD_BYTES, which is refused by its size alone. */
  attachments: { name: string; contentType: string; size: number; content: Buffer | null }[];
};

export type EmailReplyOutcome =
  | "unknown" // no valid reply address: nothing kept, nobody told (it could be anyone's mail)
  | "duplicate"
  | "answered"
  | "added"
  | "held"
  | "refused";

/** What she is told back, a key of the emails namespace's `reply` (decision 078). */
type ReplyNote = "thanks" | "added" | "held" | "tooLong" | "tooLarge" | "notAudio" | "photo" | "empty" | "gone";

/** What she is told when her recording is refused (acceptRecording's problems). */
const RECORDING_PROBLEMS: Partial<Record<AudioProblem | "gone", ReplyNote>> = {
  gone: "gone",
  tooLong: "tooLong",
  tooLarge: "tooLarge",
};

const normalise = (address: string) => (/<([^>]+)>/.exec(address)?.[1] ?? address).trim().toLowerCase();

/**
 * A reply to a question email becomes her answer: the first reply is the answer (her words, an
 * attached recording as its voice, checked like an upload), later ones add their words to it, and
 * one from an address the question did not go to waits for the owner. Each MessageID is kept once,
 * so Postmark's retries and a reply posted twice change nothing. She is told in her language what
 * was kept or what went wrong. Pictures are refused politely for now: nothing is lost, the photo
 * stays on her phone (decision 078).
 */
export async function receiveEmailReply(
  services: AnswerServices,
  reply: InboundEmailReply,
): Promise<EmailReplyOutcome> {
  const { db } = services;
  const token = reply.mailboxHash || reply.to.map(tokenOfReplyAddress).find(Boolean);
  const promptId = token ? promptIdOfReplyToken(services.config, token) : null;
  if (!promptId) return "unknown";
  const seen = await db
    .selectFrom("email_replies")
    .select("id")
    .where("message_id", "=", reply.messageId)
    .executeTakeFirst();
  if (seen) return "duplicate";
  const from = normalise(reply.from);

  const prompt = await promptOfReply(db, promptId);
  // Deleted (or never sent): her words have nowhere to go, and she is told so.
  if (!prompt?.sent_at)
    return refuse(services, reply, null, from, "gone", /[\u0900-\u097f]/.test(reply.words) ? "hi" : "en");

  const hers = [prompt.link_address, prompt.storyteller_email?.toLowerCase()].includes(from);
  if (!hers) return hold(services, reply, prompt, from);

  // What she attached, told apart by its bytes, never its name: a picture is refused for now; the
  // first other file is tried as the answer's recording, with every check of an upload.
  let problem: ReplyNote | null = null;
  let recording: Buffer | null = null;
  for (const attachment of reply.attachments) {
    if (!attachment.content || attachment.size > MAX_UPLOAD_BYTES) problem ??= "tooLarge";
    else if ((await fileTypeFromBuffer(attachment.content))?.mime.startsWith("image/")) problem ??= "photo";
    else if (!recording) recording = attachment.content;
    else problem ??= "notAudio";
  }
  let answerId: string | null = null;
  if (recording) {
    const folder = await mkdtemp(path.join(tmpdir(), "heirloom-email-"));
    try {
      const file = path.join(folder, "voice-memo");
      await writeFile(file, recording);
      const result = await acceptRecording(services, {
        promptId,
        file,
        isPrivate: false,
        // A retried webhook finds the same answer.
        uploadId: `email:${reply.messageId}`,
      });
      if (result.ok) answerId = result.answerId;
      else problem = RECORDING_PROBLEMS[result.problem] ?? "notAudio";
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }
  if (!reply.words && !answerId) return refuse(services, reply, prompt, from, problem ?? "empty", prompt.language);

  return inTransaction(db, async (tx) => {
    const claimed = await claim(tx, reply.messageId, promptId, from);
    if (!claimed) return "duplicate" as const;
    await tx.selectFrom("prompts").select("id").where("id", "=", promptId).forUpdate().execute();
    const existing = await tx
      .selectFrom("answers")
      .select(["id", "storage_key", "upload_id"])
      .where("prompt_id", "=", promptId)
      .executeTakeFirst();
    let outcome: "answered" | "added";
    if (!existing) {
      const answer = await tx
        .insertInto("answers")
        .values({
          prompt_id: promptId,
          storyteller_id: prompt.storyteller_id,
          written_text: reply.words,
          // Her words are the answer's words: shown, searched and printed as a transcript is.
          transcript: reply.words,
          transcript_status: "done",
          recorded_for_email: prompt.link_address,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      answerId = answer.id;
      outcome = "answered";
      await tx
        .updateTable("prompts")
        .set({ skipped_at: null, updated_at: new Date() })
        .where("id", "=", promptId)
        .execute();
      await releaseAnswerCode(tx, promptId);
      await notifyStorytellerEvent(tx, services.config, {
        type: "uploaded",
        storytellerId: prompt.storyteller_id,
        promptId,
      });
    } else {
      answerId = existing.id;
      // Her recording of this very reply made the answer: the reply is the answer, not an addition.
      outcome = existing.upload_id === `email:${reply.messageId}` ? "answered" : "added";
      if (reply.words) await addWords(tx, existing.id, reply.words, existing.storage_key === null);
    }
    await tx
      .updateTable("email_replies")
      .set({ status: outcome, answer_id: answerId })
      .where("id", "=", claimed)
      .execute();
    await tell(
      tx,
      services,
      from,
      prompt.language,
      prompt.asker,
      problem ?? (outcome === "added" ? "added" : "thanks"),
    );
    return outcome;
  });
}

/** Later words join the answer's, after a blank line; an answer without a recording shows them too. */
async function addWords(tx: DbOrTx, answerId: string, words: string, written: boolean) {
  const joined = (column: "written_text" | "transcript") =>
    sql<string>`case when coalesce(${sql.ref(column)}, '') = '' then ${words} else ${sql.ref(column)} || ${"\n\n"} || ${words} end`;
  await tx
    .updateTable("answers")
    .set({
      written_text: joined("written_text"),
      ...(written ? { transcript: joined("transcript") } : {}),
    })
    .where("id", "=", answerId)
    .execute();
}

function promptOfReply(db: DbOrTx, promptId: string) {
  return db
    .selectFrom("prompts as p")
    .innerJoin("storytellers as s", "s.id", "p.storyteller_id")
    .innerJoin("users as owner", "owner.id", "s.owner_id")
    .leftJoin("users as asker", "asker.id", "p.created_by")
    .select([
      "p.id",
      "p.sent_at",
      "p.storyteller_id",
      "s.language",
      "s.email as storyteller_email",
      sql<string>`coalesce(asker.first_name, owner.first_name)`.as("asker"),
      recordLinkAddress(db, promptId).as("link_address"),
    ])
    .where("p.id", "=", promptId)
    .executeTakeFirst();
}

type PromptOfReply = NonNullable<Awaited<ReturnType<typeof promptOfReply>>>;

/** Claims the MessageID (null when another delivery of it claimed it first). */
async function claim(tx: DbOrTx, messageId: string, promptId: string | null, from: string, heldText?: string) {
  const row = await tx
    .insertInto("email_replies")
    .values({
      message_id: messageId,
      prompt_id: promptId,
      from_address: from,
      status: heldText === undefined ? "refused" : "held",
      held_text: heldText ?? null,
    })
    .onConflict((oc) => oc.column("message_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A reply from an address the question did not go to: kept for the owner to accept or discard. */
async function hold(
  services: AnswerServices,
  reply: InboundEmailReply,
  prompt: PromptOfReply,
  from: string,
): Promise<EmailReplyOutcome> {
  return inTransaction(services.db, async (tx) => {
    const claimed = await claim(tx, reply.messageId, prompt.id, from, reply.words);
    if (!claimed) return "duplicate" as const;
    await tell(tx, services, from, prompt.language, prompt.asker, "held");
    return "held" as const;
  });
}

async function refuse(
  services: AnswerServices,
  reply: InboundEmailReply,
  prompt: PromptOfReply | null,
  from: string,
  note: ReplyNote,
  language: Language,
): Promise<EmailReplyOutcome> {
  return inTransaction(services.db, async (tx) => {
    const claimed = await claim(tx, reply.messageId, prompt?.id ?? null, from);
    if (!claimed) return "duplicate" as const;
    await tell(tx, services, from, language, prompt?.asker ?? "", note);
    return "refused" as const;
  });
}

async function tell(
  tx: DbOrTx,
  services: AnswerServices,
  to: string,
  language: Language,
  asker: string,
  note: ReplyNote,
) {
  const t = await getServerT(language, { config: services.config }, "emails");
  await queueEmail(tx, {
    to,
    subject: t(`reply.${note}.subject`, { asker }),
    text: t(`reply.${note}.text`, { asker, appName: services.config.APP_NAME }),
  });
}
