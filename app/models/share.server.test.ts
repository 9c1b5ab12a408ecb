import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import { watchLogs } from "~/services/logger.server";
import type { StorageService } from "~/services/storage.server";
import { makeTestContext } from "../../tests/context";
import { useTestDatabase } from "../../tests/db";
import {
  createAnswer,
  createDelivery,
  createGroup,
  createPrompt,
  createStoryteller,
  createUser,
} from "../../tests/factories";
import { jobsFor } from "../../tests/jobs";
import {
  answerDownloadName,
  answerForListener,
  answerForShareToken,
  deleteAnswer,
  playableSource,
  requestRerecord,
  shareAnswer,
  stopSharingAnswer,
} from "./share.server";

const database = useTestDatabase();
const context = () => makeTestContext(database);
afterAll(async () => {
  await rm(path.join(os.tmpdir(), `heirloom-test-files-${database.name}`), { recursive: true, force: true });
});

const user = async () => (await createUser(database.db)).id;

/** A Storyteller with one sent prompt and its answer, the recording and a playable copy in storage. */
async function storytellerWithAnswer(
  ownerId: string,
  options: { deliveryMethod?: "email" | "sms"; isPrivate?: boolean } = {},
) {
  const storyteller = await createStoryteller(database.db, {
    ownerId,
    deliveryMethod: options.deliveryMethod,
    prompts: [],
  });
  const prompt = await createPrompt(database.db, {
    storytellerId: storyteller.id,
    text: "What was your first home like?",
    sentAt: new Date(),
  });
  const answer = await createAnswer(database.db, {
    storytellerId: storyteller.id,
    promptId: prompt.id,
    storage: context().storage,
    audio: new Uint8Array([1, 2, 3]),
    contentType: "audio/webm",
    durationMs: 1000,
    playable: { audio: new Uint8Array([4, 5, 6]), contentType: "audio/mp4" },
    isPrivate: options.isPrivate,
  });
  return {
    storytellerId: storyteller.id,
    promptId: prompt.id,
    answerId: answer.id,
    key: answer.storage_key,
    playableKey: answer.playable_storage_key!,
  };
}

describe("answerDownloadName", () => {
  it("is the first name and the question, without characters file systems refuse or trailing punctuation", () => {
    expect(answerDownloadName("Kamla", "What was your first home like?", "audio/mp4")).toBe(
      "Kamla – What was your first home like.m4a",
    );
    expect(answerDownloadName("Kamla", 'Tell me about "home": where / when?', "audio/webm")).toBe(
      "Kamla – Tell me about home where when.webm",
    );
    expect(answerDownloadName("कमला", "आपका पहला घर कैसा था?", "audio/mp4")).toBe("कमला – आपका पहला घर कैसा था.m4a");
    expect(answerDownloadName("कमला", "आपकी माँ रविवार को क्या बनाती थीं।", "audio/ogg")).toBe(
      "कमला – आपकी माँ रविवार को क्या बनाती थीं.ogg",
    );
    expect(answerDownloadName("Kamla", "Line one\nline\ttwo...", "audio/mpeg")).toBe("Kamla – Line one line two.mp3");
    expect(answerDownloadName("  ", "???", "audio/x-unknown")).toBe("answer.audio");
  });

  it("keeps long questions to about 80 characters, cut between words", () => {
    const name = answerDownloadName("Kamla", `${"word ".repeat(40)}end?`, "audio/wav");
    expect(name.endsWith(" word.wav")).toBe(true);
    expect(Array.from(name).length).toBeLessThanOrEqual("Kamla – ".length + 80 + ".wav".length);
  });
});

describe("playableSource", () => {
  it("prefers the playable copy and falls back to the original", () => {
    expect(
      playableSource({
        storage_key: "a.webm",
        content_type: "audio/webm",
        playable_storage_key: "a.m4a",
        playable_content_type: "audio/mp4",
      }),
    ).toEqual({ key: "a.m4a", contentType: "audio/mp4" });
    expect(
      playableSource({
        storage_key: "a.webm",
        content_type: "audio/webm",
        playable_storage_key: null,
        playable_content_type: null,
      }),
    ).toEqual({ key: "a.webm", contentType: "audio/webm" });
  });
});

describe("answerForListener", () => {
  it("finds the answer for its owner and group members only, never a private one, never a malformed id", async () => {
    const owner = await user();
    const member = await user();
    const stranger = await user();
    const a = await storytellerWithAnswer(owner);
    await createGroup(database.db, { ownerId: owner, storytellerId: a.storytellerId, collaborators: [member] });
    expect(await answerForListener(database.db, owner, a.answerId)).toMatchObject({
      id: a.answerId,
      first_name: "Kamla",
      prompt_text: "What was your first home like?",
    });
    expect(await answerForListener(database.db, member, a.answerId)).not.toBeNull();
    expect(await answerForListener(database.db, stranger, a.answerId)).toBeNull();
    expect(await answerForListener(database.db, owner, "1 or 1=1")).toBeNull();
    const hidden = await storytellerWithAnswer(owner, { isPrivate: true });
    expect(await answerForListener(database.db, owner, hidden.answerId)).toBeNull();
  });
});

describe("shareAnswer", () => {
  it("two Shares at the same moment make one link", async () => {
    const owner = await user();
    const a = await storytellerWithAnswer(owner);
    const [one, two] = await Promise.all([
      shareAnswer(context(), owner, a.storytellerId, a.answerId),
      shareAnswer(context(), owner, a.storytellerId, a.answerId),
    ]);
    expect(one?.url).toBeTruthy();
    expect(one?.url).toBe(two?.url);
    expect(
      await database.db.selectFrom("share_links").select("id").where("answer_id", "=", a.answerId).execute(),
    ).toHaveLength(1);
  });

  it("gives the same address every time the link is shown, minutes apart", async () => {
    const owner = await user();
    const a = await storytellerWithAnswer(owner);
    const first = (await shareAnswer(context(), owner, a.storytellerId, a.answerId))!;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5 * 60_000 });
    try {
      expect((await shareAnswer(context(), owner, a.storytellerId, a.answerId))!.url).toBe(first.url);
    } finally {
      vi.useRealTimers();
    }
  });

  it("after Stop sharing, a new link; the old one stays dead", async () => {
    const owner = await user();
    const a = await storytellerWithAnswer(owner);
    const first = (await shareAnswer(context(), owner, a.storytellerId, a.answerId))!;
    expect(await stopSharingAnswer(database.db, owner, a.storytellerId, a.answerId)).toBe(true);
    const second = (await shareAnswer(context(), owner, a.storytellerId, a.answerId))!;
    expect(second.url).not.toBe(first.url);
    const token = (url: string) => url.split("/s/")[1];
    expect(await answerForShareToken(context(), token(first.url))).toBeNull();
    expect(await answerForShareToken(context(), token(second.url))).toMatchObject({ id: a.answerId });
  });

  it("is refused (null) for a stranger, another Storyteller's address, and a private answer", async () => {
    const owner = await user();
    const stranger = await user();
    const a = await storytellerWithAnswer(owner);
    const other = await storytellerWithAnswer(owner);
    const hidden = await storytellerWithAnswer(owner, { isPrivate: true });
    expect(await shareAnswer(context(), stranger, a.storytellerId, a.answerId)).toBeNull();
    expect(await shareAnswer(context(), owner, other.storytellerId, a.answerId)).toBeNull();
    expect(await shareAnswer(context(), owner, hidden.storytellerId, hidden.answerId)).toBeNull();
    expect(await stopSharingAnswer(database.db, stranger, a.storytellerId, a.answerId)).toBe(false);
    expect(
      await database.db
        .selectFrom("share_links")
        .select("id")
        .where("answer_id", "in", [a.answerId, hidden.answerId])
        .execute(),
    ).toEqual([]);
  });
});

describe("deleteAnswer", () => {
  it("deletes the row even when storage can't remove an object right now (it says so in the log)", async () => {
    const owner = await user();
    const a = await storytellerWithAnswer(owner);
    const real = context().storage;
    const failing: StorageService = { ...real, delete: async () => Promise.reject(new Error("storage is down")) };
    const warnings: unknown[][] = [];
    const unwatch = watchLogs((level, args) => level === "warn" && warnings.push(args) > 0);
    try {
      expect(await deleteAnswer({ ...context(), storage: failing }, owner, a.storytellerId, a.answerId)).toBe(true);
      expect(warnings).toHaveLength(2);
      expect(warnings[0][0]).toMatchObject({ key: a.key, err: { message: "storage is down" } });
    } finally {
      unwatch();
    }
    expect(
      await database.db.selectFrom("answers").select("id").where("id", "=", a.answerId).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("removes nothing when the row stays (a stranger, a collaborator)", async () => {
    const owner = await user();
    const member = await user();
    const a = await storytellerWithAnswer(owner);
    await createGroup(database.db, { ownerId: owner, storytellerId: a.storytellerId, collaborators: [member] });
    expect(await deleteAnswer(context(), member, a.storytellerId, a.answerId)).toBe(false);
    expect(await context().storage.head(a.key!)).not.toBeNull();
    expect(await context().storage.head(a.playableKey)).not.toBeNull();
  });
});

describe("requestRerecord", () => {
  const ledger = (promptId: string) =>
    database.db
      .selectFrom("deliveries")
      .select(["id", "channel", "purpose", "status", "error", "outbox_message_id"])
      .where("prompt_id", "=", promptId)
      .orderBy("purpose")
      .execute();

  it("uses the Storyteller's channel, and a second request resets the finished resend to pending", async () => {
    const owner = await user();
    const a = await storytellerWithAnswer(owner, { deliveryMethod: "sms" });
    // The original send's ledger row is left alone.
    await createDelivery(database.db, { promptId: a.promptId, channel: "sms", purpose: "prompt", status: "sent" });
    expect(await requestRerecord(database.db, owner, a.storytellerId, a.answerId)).toBe("requested");
    const [first] = (await ledger(a.promptId)).filter((d) => d.purpose === "resend");
    expect(first).toMatchObject({ channel: "sms", status: "pending" });

    await database.db
      .updateTable("deliveries")
      .set({ status: "failed", error: "carrier said no" })
      .where("id", "=", first.id)
      .execute();
    await sql`delete from graphile_worker._private_jobs`.execute(database.db);
    expect(await requestRerecord(database.db, owner, a.storytellerId, a.answerId)).toBe("requested");
    expect(await ledger(a.promptId)).toEqual([
      expect.objectContaining({ purpose: "prompt", status: "sent" }),
      { id: first.id, channel: "sms", purpose: "resend", status: "pending", error: null, outbox_message_id: null },
    ]);
    expect((await jobsFor(database.db, "delivery__send")).map((job) => job.payload)).toEqual([
      { deliveryId: first.id, sendNow: true },
    ]);
  });

  it("leaves a resend that is being sent right now alone (it is this request's message)", async () => {
    const owner = await user();
    const a = await storytellerWithAnswer(owner);
    await createDelivery(database.db, { promptId: a.promptId, channel: "email", purpose: "resend", status: "sending" });
    await sql`delete from graphile_worker._private_jobs`.execute(database.db);
    expect(await requestRerecord(database.db, owner, a.storytellerId, a.answerId)).toBe("requested");
    expect(await ledger(a.promptId)).toMatchObject([{ purpose: "resend", status: "sending" }]);
    expect(await jobsFor(database.db, "delivery__send")).toEqual([]);
  });

  it("is 'unreachable' for a Storyteller who opted out of texts, and 'not-found' for a collaborator", async () => {
    const owner = await user();
    const a = await storytellerWithAnswer(owner, { deliveryMethod: "sms" });
    await database.db
      .updateTable("storytellers")
      .set({ sms_consent: "revoked" })
      .where("id", "=", a.storytellerId)
      .execute();
    expect(await requestRerecord(database.db, owner, a.storytellerId, a.answerId)).toBe("unreachable");
    const member = await user();
    await createGroup(database.db, { ownerId: owner, storytellerId: a.storytellerId, collaborators: [member] });
    expect(await requestRerecord(database.db, member, a.storytellerId, a.answerId)).toBe("not-found");
    const prompt = await database.db
      .selectFrom("prompts")
      .select("rerecord_requested_at")
      .where("id", "=", a.promptId)
      .executeTakeFirstOrThrow();
    expect(prompt.rerecord_requested_at).toBeNull();
    expect(await ledger(a.promptId)).toEqual([]);
  });
});
