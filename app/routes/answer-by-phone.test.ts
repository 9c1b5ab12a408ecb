import { describe, expect, it } from "vitest";
import { ensureAnswerCode, formatAnswerCode } from "~/models/answer-code.server";
import { sendDelivery } from "~/models/delivery.server";
import { processPhoneRecording } from "~/models/phone-recording.server";
import { recordPageState } from "~/models/record-page.server";
import { deleteAnswer, requestRerecord } from "~/models/share.server";
import { storageKeys } from "~/services/storage-keys";
import { signCapability } from "~/services/tokens.server";
import { createSimulatedVoice } from "~/services/voice.server";
import { inTransaction } from "../../db/client";
import { silentWav } from "../../tests/audio-fixtures";
import { formRequest, makeTestContext, routeArgs } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import { createAnswer, createPrompt, createSentEmail, createStoryteller, createUser } from "../../tests/factories";
import { storytellerPage } from "./dashboard.recipient.$id/server";
import { action as outboxAction, loader as outboxLoader } from "./dev.outbox/route";
import { loader as playbackLoader } from "./phone.play.$token";

const database = useTestDatabase();
const context = () => makeTestContext(database);

type Turn = {
  phone: {
    callSid: string;
    from: string;
    heard: (string | { play: string })[];
    gather: { step: string; numDigits: number | null } | null;
    record: { step: string; silenceStep: string | null } | null;
    ended: boolean;
  } | null;
  phoneError?: string;
};

const simulate = async (fields: Record<string, string>, ctx = context()) =>
  (await outboxAction({
    request: formRequest("/dev/outbox?phone", fields),
    context: ctx,
    params: {},
    ...routeArgs,
  })) as Turn;

async function speak(turn: NonNullable<Turn["phone"]>, audio: Uint8Array) {
  const form = new FormData();
  form.set("from", turn.from);
  form.set("callSid", turn.callSid);
  form.set("step", turn.record!.step);
  form.set("audio", new Blob([new Uint8Array(audio)], { type: "audio/wav" }), "answer.wav");
  const body = new Response(form);
  const bytes = new Uint8Array(await body.arrayBuffer());
  const request = new Request("http://localhost:3000/dev/outbox?phone", {
    method: "POST",
    headers: {
      "Content-Type": body.headers.get("content-type")!,
      "Content-Length": String(bytes.byteLength),
      "Sec-Fetch-Site": "same-origin",
    },
    body: bytes,
  });
  return (await outboxAction({ request, context: context(), params: {}, ...routeArgs })) as Turn;
}

const codeOf = (promptId: string) =>
  inTransaction(database.db, (tx) => ensureAnswerCode(tx, context().config, promptId));

async function statusOf(promise: Promise<unknown>) {
  try {
    const answered = await promise;
    return (answered as { init?: { status?: number } } | undefined)?.init?.status ?? 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("the phone simulator in /dev/outbox", () => {
  it("calls, takes the code, records a WAV, keeps it on 1, and the recording job makes the answer", async () => {
    const owner = await createUser(database.db, { first_name: "Ravi" });
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Your school?",
      sentAt: new Date(),
    });
    // Its email went to her address; she answers by phone, with the code it gave.
    await createSentEmail(database.db, { promptId: prompt.id, to: storyteller.email! });
    const code = await codeOf(prompt.id);

    const loaded = await outboxLoader({
      request: new Request("http://localhost:3000/dev/outbox"),
      context: context(),
      params: {},
      ...routeArgs,
    });
    expect(loaded.phoneNumber).toBe("+1 555 555 0100");

    const call = (await simulate({ intent: "phone-call", from: "+15555550166" })).phone!;
    expect(call.heard).toContain("Please enter the answer code that came with your question, then press the hash key.");
    // Any number of keys, ended by # (the page lets a code of any length be typed).
    expect(call.gather).toMatchObject({ step: "code", numDigits: null });
    expect(call.ended).toBe(false);

    const question = (
      await simulate({ intent: "phone-keys", from: call.from, callSid: call.callSid, step: "code", digits: code })
    ).phone!;
    expect(question.heard).toEqual(expect.arrayContaining(["Ravi asks:", "Your school?"]));
    expect(question.record).toEqual({ step: "recorded", silenceStep: "silence" });

    // Not a recording: the page says so and the call waits for one.
    const refused = await speak(question, new TextEncoder().encode("not audio at all"));
    expect(refused.phoneError).toBe("simulator.notRecorded");

    const review = (await speak(question, silentWav(2))).phone!;
    expect(review.heard).toEqual([
      "To keep your answer, press 1. To listen to it, press 2. To record it again, press 3.",
    ]);
    const listened = (
      await simulate({ intent: "phone-keys", from: call.from, callSid: call.callSid, step: "review", digits: "2" })
    ).phone!;
    // The recording is played back through the same playback route Twilio's <Play> would fetch.
    const played = listened.heard[0] as { play: string };
    expect(played.play).toMatch(/^\/phone\/play\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const token = played.play.split("/").at(-1)!;
    const playback = await playbackLoader({
      request: new Request(`http://localhost:3000${played.play}`),
      context: context(),
      params: { token },
      ...routeArgs,
    });
    expect(playback.status).toBe(200);
    const bytes = new Uint8Array(await playback.arrayBuffer());
    expect(Buffer.from(bytes).equals(silentWav(2))).toBe(true);
    const kept = (
      await simulate({ intent: "phone-keys", from: call.from, callSid: call.callSid, step: "review", digits: "1" })
    ).phone!;
    expect(kept.heard).toEqual(["Thank you. Your story is saved, and Ravi will hear it soon. Goodbye."]);
    expect(kept.ended).toBe(true);

    const [recording] = await database.db
      .selectFrom("phone_recordings")
      .selectAll()
      .where("call_sid", "=", call.callSid)
      .execute();
    expect(recording.status).toBe("kept");
    const ctx = context();
    expect(await processPhoneRecording({ ...ctx, voice: createSimulatedVoice(ctx.storage) }, recording.id)).toBe(
      "stored",
    );
    const answer = await database.db
      .selectFrom("answers")
      .selectAll()
      .where("prompt_id", "=", prompt.id)
      .executeTakeFirstOrThrow();
    expect(answer).toMatchObject({ via_phone: true, content_type: "audio/wav", duration_ms: 2000 });
    // Whose it is comes from the number that called, which no account holds (decision 063): not the
    // address of the email, since whoever holds the code can call.
    expect(answer).toMatchObject({ recorded_for_phone: "+15555550166", recorded_for_email: null });
    // As Twilio's copy is deleted once stored, so is the simulator's.
    expect(await ctx.storage.head(storageKeys.phoneSimulatorRecording(recording.recording_sid))).toBeNull();
  });

  it("keeps the recording when the simulated caller hangs up, and says nothing was heard on silence", async () => {
    const owner = await createUser(database.db);
    const phone = "+15555550177";
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, phone, prompts: [] });
    const prompt = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Hang up?",
      sentAt: new Date(),
    });
    const call = (await simulate({ intent: "phone-call", from: phone })).phone!;
    expect(call.heard).toContain("Hang up?");
    const silent = (
      await simulate({ intent: "phone-keys", from: phone, callSid: call.callSid, step: "silence", digits: "" })
    ).phone!;
    expect(silent.heard).toEqual(["We did not hear anything. Let us try once more."]);
    await speak(silent, silentWav(1));
    const hungUp = (await simulate({ intent: "phone-hangup", from: phone, callSid: call.callSid })).phone!;
    expect(hungUp.ended).toBe(true);
    const rows = await database.db
      .selectFrom("phone_recordings")
      .select(["status", "prompt_id"])
      .where("call_sid", "=", call.callSid)
      .execute();
    expect(rows).toEqual([{ status: "kept", prompt_id: prompt.id }]);
  });

  it("is a 404 with Twilio configured, or for anyone not on this machine", async () => {
    const twilio = makeTestContext(database, {
      TWILIO_ACCOUNT_SID: "AC" + "0".repeat(32),
      TWILIO_AUTH_TOKEN: "x".repeat(20),
      TWILIO_FROM_NUMBER: "+15555550100",
    });
    expect(await statusOf(simulate({ intent: "phone-call", from: "+15555550166" }, twilio))).toBe(404);
    expect(
      await statusOf(
        simulate(
          { intent: "phone-call", from: "+15555550166" },
          makeTestContext(database, {}, { fromLoopback: false }),
        ),
      ),
    ).toBe(404);
    expect(await statusOf(simulate({ intent: "phone-call", from: "not a number" }))).toBe(400);
  });
});

describe("where the call-in number and code are shown", () => {
  it("on the Storyteller's page per sent prompt waiting for an answer, and on its record page", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const waiting = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Waiting?",
      sentAt: new Date(),
    });
    const answered = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Answered?",
      sentAt: new Date(),
    });
    const skipped = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Skipped?",
      sentAt: new Date(),
      skippedAt: new Date(),
    });
    const code = await codeOf(waiting.id);
    await codeOf(answered.id);
    await codeOf(skipped.id);
    await createAnswer(database.db, { storytellerId: storyteller.id, promptId: answered.id });

    const page = await storytellerPage(context(), owner.id, storyteller.id, "sent");
    const byText = Object.fromEntries(page!.sent.map((p) => [p.text, p.call_in]));
    expect(byText["Waiting?"]).toEqual({ number: "+1 555 555 0100", code: formatAnswerCode(code) });
    expect(byText["Answered?"]).toBeNull();
    // She chose to skip it: the family is not shown how to answer it by phone.
    expect(byText["Skipped?"]).toBeNull();

    const state = await recordPageState(context(), await signCapability(context().config, "record", waiting.id));
    expect(state?.callInText).toBe(`Or answer by phone: call +1 555 555 0100 and enter ${formatAnswerCode(code)}.`);
    const done = await recordPageState(context(), await signCapability(context().config, "record", answered.id));
    expect(done?.callInText).toBeNull();
  });

  it("again once the answer is deleted and the question waits once more", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Deleted answer?",
      sentAt: new Date(),
    });
    const code = await codeOf(prompt.id);
    const answer = await createAnswer(database.db, { storytellerId: storyteller.id, promptId: prompt.id });
    const before = await storytellerPage(context(), owner.id, storyteller.id, "sent");
    expect(before!.sent.find((p) => p.text === "Deleted answer?")!.call_in).toBeNull();

    expect(await deleteAnswer(context(), owner.id, storyteller.id, answer.id)).toBe(true);
    const after = await storytellerPage(context(), owner.id, storyteller.id, "sent");
    // On a small site the same digits: derived again at the same length and salt.
    expect(after!.sent.find((p) => p.text === "Deleted answer?")!.call_in).toEqual({
      number: "+1 555 555 0100",
      code: formatAnswerCode(code),
    });
    const call = (await simulate({ intent: "phone-call", from: "+15555550199" })).phone!;
    const reply = (
      await simulate({ intent: "phone-keys", from: call.from, callSid: call.callSid, step: "code", digits: code })
    ).phone!;
    expect(reply.heard).toContain("Deleted answer?");
  });

  it("again when a new recording is asked for: the resent message carries a code that opens the question", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Once more?",
      sentAt: new Date(),
    });
    await codeOf(prompt.id);
    const answer = await createAnswer(database.db, { storytellerId: storyteller.id, promptId: prompt.id });
    expect(await requestRerecord(database.db, owner.id, storyteller.id, answer.id)).toBe("requested");
    const resend = await database.db
      .selectFrom("deliveries")
      .select("id")
      .where("prompt_id", "=", prompt.id)
      .where("purpose", "=", "resend")
      .executeTakeFirstOrThrow();
    expect(await sendDelivery(context(), resend.id, { sendNow: true })).toBe("sent");
    const page = await storytellerPage(context(), owner.id, storyteller.id, "sent");
    const shown = page!.sent.find((p) => p.text === "Once more?")!.call_in!.code;
    const [email] = await database.db
      .selectFrom("outbox_messages")
      .select("text_body")
      .where("to_address", "=", storyteller.email!)
      .orderBy("created_at", "desc")
      .limit(1)
      .execute();
    expect(email.text_body).toContain(`and enter ${shown} to answer by phone`);
    const call = (await simulate({ intent: "phone-call", from: "+15555550198" })).phone!;
    const reply = (
      await simulate({
        intent: "phone-keys",
        from: call.from,
        callSid: call.callSid,
        step: "code",
        digits: shown.replaceAll(" ", ""),
      })
    ).phone!;
    expect(reply.heard).toContain("Once more?");
  });

  it("nowhere once the Storyteller is removed: the code stops working", async () => {
    const owner = await createUser(database.db);
    const storyteller = await createStoryteller(database.db, { ownerId: owner.id, prompts: [] });
    const prompt = await createPrompt(database.db, {
      storytellerId: storyteller.id,
      text: "Removed?",
      sentAt: new Date(),
    });
    const code = await codeOf(prompt.id);
    await database.db.deleteFrom("storytellers").where("id", "=", storyteller.id).execute();
    expect(
      await database.db.selectFrom("answer_codes").select("prompt_id").where("prompt_id", "=", prompt.id).execute(),
    ).toEqual([]);
    const call = (await simulate({ intent: "phone-call", from: "+15555550188" })).phone!;
    const reply = (
      await simulate({ intent: "phone-keys", from: call.from, callSid: call.callSid, step: "code", digits: code })
    ).phone!;
    expect(reply.heard[0]).toBe("Sorry, that code did not work.");
  });
});
