import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { ActionArgs } from "~/context.server";
import { receiveEmailReply } from "~/models/email-reply.server";
import {
  type SimulatedTurn,
  simulateCall,
  simulateCallOutAnswer,
  simulateHangUp,
  simulateKeys,
  simulateRecording,
} from "~/models/phone-simulator.server";
import { simulateWhatsApp } from "~/models/whatsapp-simulator.server";
import { MAX_UPLOAD_BYTES } from "~/services/audio-check.server";
import { replyWords } from "~/services/reply-words.server";
import { readForm, readMultipart } from "~/utils/request-body.server";
import { withoutControlCharacters } from "~/utils/validation";
import { PhoneIntent } from "./intents";
import { emailReplySchema, phoneSchema, recordingSchema, whatsappSchema } from "./schema";

export type PhoneResult = { phone: SimulatedTurn | null; phoneError?: string; result?: SubmissionResult<string[]> };

/** A refused post: conform's reply, with 400. */
const refuse = (result: SubmissionResult<string[]>) => data<PhoneResult>({ phone: null, result }, { status: 400 });

/** The phone simulator's turns: the same handler as Twilio's voice webhooks (see phone-simulator.server). */
export async function phoneAction(request: Request, context: ActionArgs["context"]) {
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data"))
    return spokenAnswer(request, context);
  const submission = parseWithZod(await readForm(request), { schema: phoneSchema });
  if (submission.status !== "success") return refuse(submission.reply());
  const input = submission.value;
  switch (input.intent) {
    case PhoneIntent.call:
      return { phone: await simulateCall(context, input.from) };
    case PhoneIntent.keys:
      return { phone: await simulateKeys(context, input) };
    case PhoneIntent.hangUp:
      return { phone: await simulateHangUp(context, input) };
    case PhoneIntent.answer: {
      const turn = await simulateCallOutAnswer(context, input);
      if (!turn) throw new Response("Not Found", { status: 404 });
      return { phone: turn };
    }
  }
}

/** A WAV given as the spoken answer to the step that records. */
async function spokenAnswer(request: Request, context: ActionArgs["context"]) {
  const folder = await mkdtemp(path.join(tmpdir(), "heirloom-phone-sim-"));
  try {
    const body = await readMultipart(request, {
      fileFields: ["audio"],
      maxFileBytes: MAX_UPLOAD_BYTES,
      folder,
      maxFieldBytes: 100,
    });
    if (!body.ok) return refuse({ status: "error", error: { audio: ["simulator.notRecorded"] } });
    const submission = parseWithZod(body.form, { schema: recordingSchema });
    if (submission.status !== "success") return refuse(submission.reply());
    const fields = submission.value;
    const file = body.files.find((f) => f.size > 0)?.path;
    const turn = file ? await simulateRecording(context, { ...fields, file }) : null;
    return turn
      ? { phone: turn }
      : {
          phone: { ...fields, heard: [], gather: null, record: { step: fields.step, silenceStep: null }, ended: false },
          phoneError: "simulator.notRecorded",
        };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The WhatsApp simulator's post: a voice note (any audio file) and/or a text, from her number. */
export async function whatsappAction(request: Request, context: ActionArgs["context"]) {
  const folder = await mkdtemp(path.join(tmpdir(), "heirloom-whatsapp-sim-"));
  try {
    const body = await readMultipart(request, {
      fileFields: ["voiceNote"],
      maxFileBytes: MAX_UPLOAD_BYTES,
      folder,
      maxFieldBytes: 4000,
    });
    if (!body.ok) return refuse({ status: "error", error: { voiceNote: ["whatsapp:simulator.nothingSent"] } });
    const submission = parseWithZod(body.form, { schema: whatsappSchema });
    if (submission.status !== "success") return refuse(submission.reply());
    const file = body.files.find((f) => f.size > 0)?.path ?? null;
    const { from, body: text, repliedTo } = submission.value;
    if (!file && !text.trim())
      return refuse(submission.reply({ fieldErrors: { body: ["whatsapp:simulator.nothingSent"] } }));
    await simulateWhatsApp(context, { from, body: text, file, repliedTo: repliedTo ?? null });
    return redirect("/dev/outbox");
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * "Reply to this email": her words and an attachment, as Postmark's inbound webhook would give
 * them, to the same handler. A file past what an answer may be ends the read; she is told, as she
 * would be by email.
 */
export async function emailReplyAction(request: Request, context: ActionArgs["context"]) {
  const folder = await mkdtemp(path.join(tmpdir(), "heirloom-email-sim-"));
  try {
    const body = await readMultipart(request, {
      fileFields: ["attachment"],
      maxFileBytes: MAX_UPLOAD_BYTES,
      folder,
      maxFieldBytes: 80_000,
    });
    if (!body.ok && body.problem !== "tooLarge")
      return refuse({ status: "error", error: { attachment: ["validation.outOfDate"] } });
    // The fields come before the file: a file too large still leaves who wrote and to which question.
    const submission = parseWithZod(body.form ?? new FormData(), { schema: emailReplySchema });
    if (submission.status !== "success") return refuse(submission.reply());
    const { replyTo, from, messageId, text } = submission.value;
    const file = body.ok ? body.files.find((f) => f.size > 0 && f.path) : undefined;
    const name = file ? withoutControlCharacters(file.filename) : "";
    await receiveEmailReply(context, {
      messageId: `outbox:${messageId}`,
      from,
      to: [replyTo],
      mailboxHash: null,
      words: replyWords({ text }),
      attachments: body.ok
        ? file?.path
          ? [{ name, contentType: "", size: file.size, content: await readFile(file.path) }]
          : []
        : [{ name: "", contentType: "audio/unknown", size: MAX_UPLOAD_BYTES + 1, content: null }],
    });
    return redirect("/dev/outbox");
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
